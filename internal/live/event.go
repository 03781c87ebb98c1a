package live

import "time"

// File is the name of the event stream in a run directory.
const File = "live.jsonl"

// Kinds of events. A reader folds them into the page's state in order;
// each carries only its own fields.
const (
	// KindStart opens a run (or a resumed part of one): what runs where,
	// and the plan that the progress and the ETA are counted against.
	KindStart = "start"
	// KindPhase says what the run does now ("populating", "load",
	// "checking consistency", ...), for the scale it names.
	KindPhase = "phase"
	// KindRate is the load in the cycle running, about every second.
	KindRate = "rate"
	// KindCycle is a finished cycle's final counts: the same numbers as
	// results.json has for it.
	KindCycle = "cycle"
	// KindScale is a finished scale (database size): its rate, as the
	// sweep's diagram of rate against size shows it.
	KindScale = "scale"
	// KindLoad is the machine's load over the last second.
	KindLoad = "load"
	// KindNodes is the remote agents' status, about every second.
	KindNodes = "nodes"
	// KindLine is a line of the run's progress output, as the terminal
	// shows it.
	KindLine = "line"
	// KindMark is an event marked by a person ("killed node 2"), journalled
	// by the run at Time.
	KindMark = "mark"
	// KindEnd closes the run: complete or not, and why not.
	KindEnd = "end"
)

// Event is one line of live.jsonl. Time is when the run wrote it; the
// other fields are set as Kind says.
type Event struct {
	Kind string    `json:"kind"`
	Time time.Time `json:"time"`

	*Start `json:",omitempty"`
	// Phase is the run's phase (KindPhase), and Text the line or the mark
	// (KindLine, KindMark).
	Phase string `json:"phase,omitempty"`
	Text  string `json:"text,omitempty"`
	// Scale and Cycle say where in the plan the event belongs (KindPhase,
	// KindRate, KindCycle, KindScale; Cycle counts from 1).
	Scale int64 `json:"scale,omitempty"`
	Cycle int   `json:"cycle,omitempty"`

	*Rate `json:",omitempty"`
	*Load `json:",omitempty"`
	Nodes []Node `json:"nodes,omitempty"`
	*End  `json:",omitempty"`
}

// Start is what KindStart carries.
type Start struct {
	Experiment string `json:"experiment"`
	Engine     string `json:"engine,omitempty"`
	Dir        string `json:"dir"`
	PID        int    `json:"pid"`
	// Scales and Cycles of Duration are the plan of a load run (empty for
	// an experiment that is not one); ETA counts from them.
	Scales   []int64       `json:"scales,omitempty"`
	Cycles   int           `json:"cycles,omitempty"`
	Duration time.Duration `json:"duration_ns,omitempty"`
	// Resumed says the run continues a stopped one.
	Resumed bool `json:"resumed,omitempty"`
}

// Rate is what KindRate, KindCycle and KindScale carry. In a KindRate
// event the counts are the cycle's so far; in KindCycle its final ones;
// in KindScale the scale's, with TPS its median rate over its cycles.
type Rate struct {
	Elapsed   time.Duration `json:"elapsed_ns,omitempty"`
	Committed int64         `json:"committed"`
	Failed    int64         `json:"failed"`
	TPS       float64       `json:"tps"`
	// P50, P95 and P99 are residence times in milliseconds over the last
	// second (KindRate) or the cycle (KindCycle); 0 when nothing committed.
	P50 float64 `json:"p50_ms,omitempty"`
	P95 float64 `json:"p95_ms,omitempty"`
	P99 float64 `json:"p99_ms,omitempty"`
	// Errors are the failed trials by class (dbms.Class names), so far.
	Errors map[string]int64 `json:"errors,omitempty"`
	// ETA is the run's expected remaining time, when it can be told.
	ETA time.Duration `json:"eta_ns,omitempty"`
	// Types are the commits per transaction type, for a workload of
	// several: so far (KindRate, TPS over the last second) or the cycle's
	// (KindCycle, TPS over the demanded duration).
	Types []TypeRate `json:"types,omitempty"`
}

// TypeRate is one transaction type in a Rate.
type TypeRate struct {
	Name      string  `json:"name"`
	Committed int64   `json:"committed"`
	TPS       float64 `json:"tps"`
}

// Load is what KindLoad carries: the machine's CPU in percent, and disk
// and network bytes per second.
type Load struct {
	CPUUser   float64 `json:"cpu_user"`
	CPUSystem float64 `json:"cpu_system"`
	CPUIOWait float64 `json:"cpu_iowait"`
	DiskRead  float64 `json:"disk_read_bps"`
	DiskWrite float64 `json:"disk_write_bps"`
	NetRx     float64 `json:"net_rx_bps"`
	NetTx     float64 `json:"net_tx_bps"`
}

// Node is one remote agent's status in a KindNodes event.
type Node struct {
	Name string `json:"name"`
	// Status is "ready", "running", "missing", "lost" or "finished".
	Status string `json:"status"`
	// HeartbeatAge is the time since the agent was last heard from.
	HeartbeatAge time.Duration `json:"heartbeat_age_ns"`
	Committed    int64         `json:"committed,omitempty"`
}

// End is what KindEnd carries.
type End struct {
	Complete bool   `json:"complete"`
	Error    string `json:"error,omitempty"`
}
