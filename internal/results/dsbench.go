package results

import "time"

// DSBenchResults is results.json of a stress sweep (dbgauge dsbench), the
// contract of docs/dsbench.md: experiment, engine, mode, form, threads,
// connections, scales (per scale the rates, counts, cycle rates T_i, f,
// confidence rates, consistency and the five durations) and dsi.
type DSBenchResults struct {
	Header
	// Mode is the workload's registered name (--workload, --mode).
	Mode string `json:"mode"`
	// Workload describes it (nil in runs stored before it was recorded).
	Workload    *WorkloadInfo `json:"workload,omitempty"`
	Form        string        `json:"form"` // procedure | statements
	Nodes       int           `json:"nodes"`
	Threads     int           `json:"threads"`
	Connections int           `json:"connections"`
	Cycles      int           `json:"cycles_per_scale"`
	DurationS   float64       `json:"duration_s"` // D, the demanded duration of a cycle
	Isolation   string        `json:"isolation"`
	Retry       bool          `json:"retry"`
	Prepare     bool          `json:"prepare"`
	Reconnect   bool          `json:"reconnect"`
	// BackoffCapS and GiveUpS are the backoff after transient faults under
	// retry or reconnect: the longest wait between attempts, and how long
	// a fault may last before the run fails (0 without retry or reconnect).
	BackoffCapS float64 `json:"backoff_cap_s,omitempty"`
	GiveUpS     float64 `json:"give_up_s,omitempty"`
	// RateTPS is the open-loop target rate; 0 for the closed loop.
	RateTPS    float64       `json:"rate_tps,omitempty"`
	Confidence []float64     `json:"confidence_levels"` // percent, e.g. 50, 68, 87, 95, 99, 99.7
	Seed       uint64        `json:"seed"`
	Scales     []ScaleResult `json:"scales"`
	// DSI is seed 001 equation 12 over the scales run (nil with fewer than
	// two scales); DSISettings names what it depends on.
	DSI         *float64     `json:"dsi"`
	DSISettings string       `json:"dsi_settings"`
	Ranges      []ScaleRange `json:"ranges,omitempty"`
	// ServerProcesses says which processes ScaleResult.ServerCPUS measures
	// ("postgres (pid 812) and its child processes"), or why the server's
	// CPU is unknown (a server on another machine, an embedded engine
	// whose work is in the client's CPU).
	ServerProcesses string `json:"server_processes,omitempty"`
	// Agents are the remote load nodes (dbgauge agent) of a distributed
	// run, in node order; empty for a local run.
	Agents []AgentInfo `json:"agents,omitempty"`
	// Cluster lists the nodes of the replicated cluster the load ran on
	// (a --db naming several hosts), and Spread how the clients were
	// placed on them (--spread); both absent for one server.
	Cluster []ClusterNode `json:"cluster,omitempty"`
	Spread  string        `json:"spread,omitempty"`
}

// ScaleResult is one scale of a sweep: one row of seed 001's Table 1.
type ScaleResult struct {
	Scale int64 `json:"scale"` // column 1
	// Seed is the seed of the scale's transaction inputs (from the run's
	// seed and the scale: the same when the run was resumed).
	Seed         uint64  `json:"seed,omitempty"`
	DBSizeBytes  int64   `json:"db_size_bytes"`        // column 2, measured from the engine
	MedianTPS    float64 `json:"median_tps"`           // column 3: the official rate
	MeanTPS      float64 `json:"mean_tps"`             // column 4
	StddevTPS    float64 `json:"stddev_tps"`           // column 5
	MinTPS       float64 `json:"min_tps"`              // column 6
	MaxTPS       float64 `json:"max_tps"`              // column 7
	Transactions int64   `json:"transactions"`         // column 8: M
	Failed       int64   `json:"failed"`               // column 9: failed trials
	ResidenceS   float64 `json:"total_residence_s"`    // column 10: sum of all r
	EffectiveS   float64 `json:"effective_duration_s"` // column 11
	F            float64 `json:"f"`                    // column 12, equation 11
	// ConfidenceTPS maps a level ("95") to f / (its quantile of the
	// residence times): columns 13-18.
	ConfidenceTPS map[string]float64 `json:"confidence_tps"`
	Cycles        []float64          `json:"cycles"` // T_i, equation 7
	Consistent    bool               `json:"consistent"`
	Inconsistency []string           `json:"inconsistency,omitempty"`
	// Unchecked says why a check after a finished cycle could not read the
	// database (a lock held by another session): consistency unknown, so
	// Consistent is false with no Inconsistency.
	Unchecked   string  `json:"unchecked,omitempty"`
	PopulateS   float64 `json:"populate_s"`    // column 19
	PrimaryKeyS float64 `json:"primary_key_s"` // column 20
	ForeignKeyS float64 `json:"foreign_key_s"` // column 21
	CleanupS    float64 `json:"cleanup_s"`     // column 22
	DropS       float64 `json:"drop_s"`        // column 23

	// KeysInPopulate: the engine stores its tables in their primary keys,
	// so the keys were made with the tables and their cost is in
	// PopulateS; PrimaryKeyS holds the secondary indexes alone.
	KeysInPopulate bool `json:"keys_in_populate,omitempty"`
	// CycleDetail holds, per cycle, node and thread, the counts behind the
	// rates (M_inj, E_inj, R_inj, L_inj).
	CycleDetail []CycleDetail `json:"cycle_detail"`
	// Errors counts the failed trials of the completed cycles by class
	// (connection_lost, connection_refused, server_unavailable,
	// too_many_connections, serialization, deadlock, timeout, other; runs
	// taken before serialization and deadlock were told apart have
	// conflict for both): they sum to Failed.
	// Reconnects counts the attempts to open a session in place of one
	// lost to a fault; InDoubt the commits lost with their connection
	// (the server may have applied them). Faults holds the cycles that
	// had any of these, or whose consistency check had to reconnect.
	Errors     map[string]int64 `json:"errors,omitempty"`
	Reconnects int64            `json:"reconnects,omitempty"`
	InDoubt    int64            `json:"in_doubt,omitempty"`
	Faults     []CycleFaults    `json:"faults,omitempty"`
	// Residence is the distribution of residence times of the scale, as
	// (quantile, microseconds) points, for the freq diagram.
	Residence []QuantilePoint `json:"residence_us"`
	// Open loop only: response time from the intended start, service time,
	// and how late transactions started (schedule lag).
	Response []QuantilePoint `json:"response_us,omitempty"`
	Lag      *LagSummary     `json:"schedule_lag,omitempty"`
	// ClientCPUS is the CPU time (user + system) dbgauge's own process used
	// during the cycles of this scale (the checks and cleanups between
	// cycles left out): the cost of the client, per transaction when
	// divided by Transactions.
	ClientCPUS float64 `json:"client_cpu_s"`
	// Who used the machine's CPU over the same time: CPUIntervalS is the
	// wall-clock time of the cycles those measures cover and MachineCPUs
	// the CPUs online, so that CPUIntervalS x MachineCPUs is all the CPU
	// time the machine had. ClientCPUPerTxUS = 1e6 x ClientCPUS /
	// Transactions; ClientCPUShare = ClientCPUS / (CPUIntervalS x
	// MachineCPUs); MachineCPUShare is the busy share of all CPUs from
	// /proc/stat; ServerCPUS and ServerCPUShare (its CPU time over the same
	// capacity) are the server's processes' user + system time, present
	// only when the server runs on this machine and its processes are known
	// (DSBenchResults.ServerProcesses says which, or why not). A share is a
	// fraction of the whole machine: 0.25 is a quarter of all its CPUs. A
	// missing field is unknown, never 0.
	CPUIntervalS     float64  `json:"cpu_interval_s,omitempty"`
	MachineCPUs      int      `json:"machine_cpus,omitempty"`
	ClientCPUPerTxUS *float64 `json:"client_cpu_per_tx_us,omitempty"`
	ClientCPUShare   *float64 `json:"client_cpu_share,omitempty"`
	MachineCPUShare  *float64 `json:"machine_cpu_share,omitempty"`
	ServerCPUS       *float64 `json:"server_cpu_s,omitempty"`
	ServerCPUShare   *float64 `json:"server_cpu_share,omitempty"`
	// Per committed transaction, from the load samples taken while the
	// scale's cycles ran (seed 001 Tables 8, 12, 16, 17): kB written to
	// disk, bytes over the network (both directions, all interfaces, so
	// loopback traffic to a local server counts), and iowait milliseconds
	// summed over all CPUs.
	WriteKBPerTx  float64 `json:"write_kb_per_tx"`
	NetBytesPerTx float64 `json:"net_bytes_per_tx"`
	IOWaitMSPerTx float64 `json:"iowait_ms_per_tx"`
	// Types are the scale's figures per transaction type (and statement),
	// TypeCycles the same per cycle; absent when the workload names no
	// type and times no statement (types.go).
	Types      []TypeFigures `json:"types,omitempty"`
	TypeCycles []TypeCycle   `json:"type_cycles,omitempty"`
	// Figures are the workload's own figures of the scale (new orders
	// per minute read from the database, an audit's shares), absent for
	// a workload that derives none.
	Figures []WorkloadFigure `json:"figures,omitempty"`
	// HistogramFile names the HdrHistogram log of this scale's residence
	// times in the run directory.
	HistogramFile string `json:"histogram_file,omitempty"`
	// Distributed runs only: per cycle, each node's counts (NodeCycles,
	// whose "nodes" lists add up to the cycle), and per node its rate
	// over the scale (NodeRates, the node diagram).
	NodeCycles []CycleNodes `json:"node_cycles,omitempty"`
	NodeRates  []NodeRate   `json:"node_rates,omitempty"`
	// Cluster runs only (DSBenchResults.Cluster): per cycle, what each
	// cluster node served (ClusterCycles, adding up to the cycle's
	// counts), and per node the scale over its cycles (ClusterNodes).
	ClusterCycles []ClusterCycle      `json:"cluster_cycles,omitempty"`
	ClusterNodes  []ClusterNodeServed `json:"cluster_nodes,omitempty"`
	// ClusterMeasures are each node's replication measures over the
	// scale's cycles.
	ClusterMeasures []ClusterNodeMeasures `json:"cluster_measures,omitempty"`
	// ClusterSeries are the charted replication measures over time.
	ClusterSeries *ClusterSeries `json:"cluster_series,omitempty"`
	// Failover is what a node crashed during the scale's load did to the
	// clients (--fault kill-node).
	Failover *Failover `json:"failover,omitempty"`
	// Acks is the check of acknowledged writes with --check-acks (in the
	// scale a node fault strikes, it is the failover's).
	Acks *AckCheck `json:"acks,omitempty"`
}

// WorkloadFigure is one of a workload's own figures over a scale: its value
// after each cycle and over the scale (as the workload combines its
// cycles), and, for an audited figure, the bounds it is held to and
// whether the scale's value is within them.
type WorkloadFigure struct {
	Name   string    `json:"name"`
	Unit   string    `json:"unit,omitempty"`
	Cycles []float64 `json:"per_cycle"`
	Scale  float64   `json:"scale"`
	Low    *float64  `json:"low,omitempty"`
	High   *float64  `json:"high,omitempty"`
	Pass   *bool     `json:"pass,omitempty"`
}

// CycleDetail is one (cycle, node, thread) of a scale.
type CycleDetail struct {
	Cycle     int     `json:"cycle"`
	Node      int     `json:"node"`
	Thread    int     `json:"thread"`
	Committed int64   `json:"committed"`   // M_inj
	Failed    int64   `json:"failed"`      // E_inj
	Retries   int64   `json:"retries"`     // attempts repeated by --retry
	SumS      float64 `json:"residence_s"` // R_inj
	EffectS   float64 `json:"effective_s"` // L_inj
}

// CycleFaults is what faults of the connection and the server cost one
// cycle of a scale: its failed trials by class, the reconnect attempts of
// its clients, its commits in doubt, and the failures of the consistency
// check and cleanup after it, by class (each retried on a new control
// session under retry or reconnect).
type CycleFaults struct {
	Cycle int `json:"cycle"`
	// Start and End of the cycle (its demanded end), whole seconds in UTC
	// (the start rounded down, the end up), to match faults with a
	// restart's time; the check after the cycle follows End.
	Start       time.Time        `json:"start"`
	End         time.Time        `json:"end"`
	Errors      map[string]int64 `json:"errors,omitempty"`
	Reconnects  int64            `json:"reconnects,omitempty"`
	InDoubt     int64            `json:"in_doubt,omitempty"`
	CheckErrors map[string]int64 `json:"check_errors,omitempty"`
}

// QuantilePoint is one point of a latency distribution.
type QuantilePoint struct {
	Quantile float64 `json:"q"`  // 0..1
	Micros   float64 `json:"us"` // value at that quantile
}

// LagSummary describes the schedule lag of an open-loop run.
type LagSummary struct {
	MeanMS float64 `json:"mean_ms"`
	MaxMS  float64 `json:"max_ms"`
	P99MS  float64 `json:"p99_ms"`
	// Skipped counts intended starts dropped because the run fell behind
	// (none are dropped: kept for the report; always 0 unless a later
	// option asks to skip).
	Skipped int64 `json:"skipped"`
}

// ScaleRange is one of the four ranges of seed 001 §5.1, named from the
// measured curve.
type ScaleRange struct {
	Name   string `json:"name"` // collision, core, cut-off, storage
	From   int64  `json:"from_scale"`
	To     int64  `json:"to_scale"`
	Reason string `json:"reason"`
}

// Consistency says what the checks found: "true", "false" (an
// inconsistency), or "not checked" (no check could read the database).
func (s *ScaleResult) Consistency() string {
	switch {
	case s.Consistent:
		return "true"
	case s.Unchecked != "" && len(s.Inconsistency) == 0:
		return "not checked"
	}
	return "false"
}
