package nodes

import "encoding/json"

// The subjects, under Prefix. Agents send to the master on the fixed ones;
// the master sends to one agent on agentSubject(name, ...).
const (
	Prefix        = "dbgauge"
	subjHello     = Prefix + ".hello"
	subjTime      = Prefix + ".time"
	subjReady     = Prefix + ".ready"
	subjReport    = Prefix + ".report"
	subjFinished  = Prefix + ".finished"
	subjBeat      = Prefix + ".beat"
	subjMasterBt  = Prefix + ".master.beat"
	subjAbort     = Prefix + ".abort"
	subjEnd       = Prefix + ".end"
	agentSubjects = Prefix + ".agent."
)

func agentSubject(name, what string) string { return agentSubjects + name + "." + what }

// hello registers an agent.
type hello struct {
	Name    string `json:"name"`
	Host    string `json:"host"`
	Version string `json:"version"`
	Config  string `json:"config"`
	Cores   int    `json:"cores"`
	Memory  int64  `json:"memory"`
	PID     int    `json:"pid"`
}

// welcome answers hello: Refused says why not, in a sentence for the
// agent's user.
type welcome struct {
	Refused string `json:"refused,omitempty"`
	Run     string `json:"run,omitempty"`
}

// clockReply answers a time ping with the master's clock.
type clockReply struct {
	UnixNano int64 `json:"t"`
}

// job is one load (one scale of a sweep) for one agent.
type job struct {
	ID int `json:"id"`
	// Label names the job in the agent's lines and files ("scale 10").
	Label   string          `json:"label"`
	Kind    string          `json:"kind"`
	Payload json.RawMessage `json:"payload"`
	// Node of Nodes: this agent's place in the load.
	Node, Nodes      int
	Threads, Conns   int
	Cycles           int     `json:"cycles"`
	DurationNS       int64   `json:"duration_ns"`
	Rate             float64 `json:"rate"`
	Poisson          bool    `json:"poisson"`
	Retry, Reconnect bool
	BackoffCapNS     int64  `json:"backoff_cap_ns"`
	GiveUpNS         int64  `json:"give_up_ns"`
	Seed             uint64 `json:"seed"`
}

// reply is the answer to a job, a report or a finished: Err says what
// went wrong on the other side.
type reply struct {
	Err string `json:"err,omitempty"`
}

// ready says an agent is ready for a cycle (for cycle 1: its sessions are
// open). The master answers it with the cycle's start once every agent is
// ready.
type ready struct {
	Name  string `json:"name"`
	Job   int    `json:"job"`
	Cycle int    `json:"cycle"`
	// OffsetNS and ErrorNS are the agent's clock offset estimate (its
	// clock minus the master's) and its bound.
	OffsetNS int64 `json:"offset_ns"`
	ErrorNS  int64 `json:"error_ns"`
}

// start answers ready: the cycle starts at AtNS on the master's clock
// (Unix nanoseconds), or the load is to stop (Abort says why).
type start struct {
	Cycle int    `json:"cycle"`
	AtNS  int64  `json:"at_ns"`
	Abort string `json:"abort,omitempty"`
}

// threadRow is one thread's counts of one cycle (driver.ThreadResult
// without its histogram, which travels merged per node).
type threadRow struct {
	Thread                                        int
	Committed, Failed, Retries, Late, Reconnects  int64
	Errors                                        []int64
	SumResidenceNS, EffectiveNS, Intended, Missed int64
	// Targets are the thread's counts per node of a replicated cluster
	// (driver.TargetResult), each with its residence times encoded.
	Targets []targetRow `json:"targets,omitempty"`
}

// targetRow is one thread's cycle on one cluster node.
type targetRow struct {
	Target            int
	Committed, Failed int64
	Errors            []int64
	SumResidenceNS    int64
	Residence         string
}

// typeRow is one transaction type of a node's cycle (driver.TypeResult).
type typeRow struct {
	Name                       string
	Committed, Failed, Retries int64
	Errors                     []int64
	Residence                  string
	Statements                 []statementRow `json:"statements,omitempty"`
}

// statementRow is one statement of a type (driver.StatementResult).
type statementRow struct {
	Name      string
	Residence string
}

// report is one agent's cycle.
type report struct {
	Name  string `json:"name"`
	Job   int    `json:"job"`
	Cycle int    `json:"cycle"`
	// StartNS and StoppedNS are when the agent's clients started the cycle
	// and when its last transaction ended, on the agent's clock.
	StartNS, StoppedNS int64
	Threads            []threadRow `json:"threads"`
	// The node's histograms, HdrHistogram's compressed encoding.
	Residence, Response, Lag string
	// Types are the node's figures per transaction type (driver.Totals'
	// Types), each histogram encoded; absent for a load that names no
	// type.
	Types []typeRow `json:"types,omitempty"`
	// Counters are the builder's (commits the master's checks count).
	Counters map[string]int64 `json:"counters,omitempty"`
	// CPUSeconds is the agent process's CPU (user + system) from the
	// cycle's start to its report: what the node's clients cost.
	CPUSeconds float64 `json:"cpu_s"`
}

// finished says an agent's load of a job ended and its sessions are
// closed; Err is why it ended early.
type finished struct {
	Name string `json:"name"`
	Job  int    `json:"job"`
	Err  string `json:"err,omitempty"`
}

// heartbeat is sent every second by an agent: it is alive, and how far
// its load has got in cycle Cycle of job Job (for the master's progress
// line, which takes counts of the cycle running only).
type heartbeat struct {
	Name      string `json:"name"`
	Job       int    `json:"job"`
	Cycle     int    `json:"cycle"`
	Committed int64  `json:"committed"`
	Failed    int64  `json:"failed"`
	// Types are the cycle's commits so far per transaction type, in the
	// workload's order (a workload of several; absent otherwise).
	Types []int64 `json:"types,omitempty"`
}

// abort stops every agent's load of a job.
type abort struct {
	Job    int    `json:"job"`
	Reason string `json:"reason"`
}

// end ends the run: agents exit.
type end struct {
	Reason string `json:"reason,omitempty"`
}
