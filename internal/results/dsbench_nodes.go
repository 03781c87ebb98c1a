package results

import "strconv"

// NodeNumber is the number a person reads for the load node of index i:
// load nodes are numbered from 1 in every message, table, CSV file and
// file name (the agent's own log says "node 1 of 2", the master's
// messages and the report say node 1 of the same agent), as the cluster's
// database nodes are. The Node fields of results.json hold the 0-based
// index.
func NodeNumber(i int) string { return strconv.Itoa(i + 1) }

// AgentInfo is one remote load node of a sweep (dbgauge agent): who it is,
// how well its clock was tied to the master's, and what happened to it.
// DSBenchResults.Agents is empty for a local run.
type AgentInfo struct {
	// Node is the node's index in the load (0-based, the order of the
	// agents' names; shown as NodeNumber), Name the name it registered
	// with.
	Node int    `json:"node"`
	Name string `json:"name"`
	// Host, Version, Cores and MemoryBytes are what the agent said of
	// itself when it registered.
	Host        string `json:"host"`
	Version     string `json:"version"`
	Cores       int    `json:"cores"`
	MemoryBytes int64  `json:"memory_bytes,omitempty"`
	// ClockOffsetMS is the agent's clock minus the master's, from the
	// ping with the lowest round trip; ClockErrorMS bounds its error (half
	// that round trip). Both are the last estimate (one per scale).
	ClockOffsetMS float64 `json:"clock_offset_ms"`
	ClockErrorMS  float64 `json:"clock_error_ms"`
	// HeartbeatsLost counts the seconds in which the master heard no
	// heartbeat from the agent while it was registered.
	HeartbeatsLost int64 `json:"heartbeats_lost"`
	// Status is "ok", "missing" or "lost"; Events says what happened to
	// the node in words, with times ("scale 2 cycle 3: missing for 3 s").
	Status string   `json:"status"`
	Events []string `json:"events,omitempty"`
}

// NodeCycle is one node's share of one cycle.
type NodeCycle struct {
	Node         int    `json:"node"`
	Name         string `json:"name"`
	Transactions int64  `json:"transactions"` // committed inside the cycle
	Failed       int64  `json:"failed"`
	// TPS is Transactions over the demanded duration.
	TPS float64 `json:"tps"`
	// StartLagMS is when the node's clients started the cycle after the
	// announced start, in the master's clock (clock offset applied).
	StartLagMS float64 `json:"start_lag_ms"`
	// Lost is set when the node was lost during the cycle: its counts are
	// what it sent before, or nothing.
	Lost bool `json:"lost,omitempty"`
}

// CycleNodes is one cycle of a scale as its nodes ran it. The nodes'
// transactions and failures add up to the cycle's.
type CycleNodes struct {
	Cycle int `json:"cycle"`
	// StartSpreadMS is the largest minus the smallest StartLagMS: how far
	// apart the nodes began the cycle.
	StartSpreadMS float64     `json:"start_spread_ms"`
	Nodes         []NodeCycle `json:"nodes"`
	// Flag says why the cycle is not like the others (a node lost and the
	// run went on with the survivors); empty when it is.
	Flag string `json:"flag,omitempty"`
}

// NodeRate is one node's rate over a scale's cycles: the points of the
// node diagram (seed 001 §4.1).
type NodeRate struct {
	Node         int     `json:"node"`
	Name         string  `json:"name"`
	MedianTPS    float64 `json:"median_tps"`
	Transactions int64   `json:"transactions"`
	Failed       int64   `json:"failed"`
	// ClientCPUS is the agent process's CPU (user + system) over the
	// node's cycles of the scale, ClientCPUPerTxUS that per committed
	// transaction in microseconds (absent with no commit).
	ClientCPUS       float64  `json:"client_cpu_s"`
	ClientCPUPerTxUS *float64 `json:"client_cpu_per_tx_us,omitempty"`
	// HistogramFile names the node's HdrHistogram interval log of the
	// scale in the run directory.
	HistogramFile string `json:"histogram_file,omitempty"`
}
