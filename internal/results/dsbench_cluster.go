package results

import "time"

// Node roles of a replicated cluster, as the node itself said when the
// run started: read-only is a hot standby; read-write a primary, or any
// Galera node.
const (
	RoleWrites   = "read-write"
	RoleReadOnly = "read-only"
)

// ClusterNode is one node of the replicated cluster a run measured.
type ClusterNode struct {
	// Node is its index, 0-based, in the order of --db's hosts.
	Node int    `json:"node"`
	Addr string `json:"addr"`
	Role string `json:"role"`
}

// ClusterServed is what the clients' trials on one cluster node came to:
// committed transactions and failed trials (by class) counted for the
// node their session was on, and the committed ones' residence times.
type ClusterServed struct {
	Node         int              `json:"node"`
	Transactions int64            `json:"transactions"`
	Failed       int64            `json:"failed"`
	Errors       map[string]int64 `json:"errors,omitempty"`
	// TPS is Transactions over the demanded duration (of a cycle, or of
	// all the scale's cycles).
	TPS float64 `json:"tps"`
	// Residence time quantiles and mean, milliseconds (absent with no
	// commit).
	MeanMS float64 `json:"mean_ms,omitempty"`
	P50MS  float64 `json:"p50_ms,omitempty"`
	P95MS  float64 `json:"p95_ms,omitempty"`
	P99MS  float64 `json:"p99_ms,omitempty"`
}

// ClusterCycle is one cycle of a scale as the cluster's nodes served it.
type ClusterCycle struct {
	Cycle int             `json:"cycle"`
	Nodes []ClusterServed `json:"nodes"`
}

// ClusterNodeServed is one cluster node over a scale's cycles: its rate
// per cycle (median), and its counts and residence times over them all.
type ClusterNodeServed struct {
	ClusterServed
	MedianTPS float64 `json:"median_tps"`
}

// ClusterNodeMeasures is what one cluster node's replication measures did
// while a scale's cycles ran, sampled once a second (cluster.log holds
// every sample): each counter's increase (certification failures, brute
// force aborts, flow control pauses; a standby's cancelled queries), and
// each level's mean and maximum (replication lag, WAL not yet replayed,
// the receive queue, the cluster's size).
type ClusterNodeMeasures struct {
	Node     int                `json:"node"`
	Increase map[string]float64 `json:"increase,omitempty"`
	Mean     map[string]float64 `json:"mean,omitempty"`
	Max      map[string]float64 `json:"max,omitempty"`
	// Samples is how many seconds the node was read, Unreadable how many
	// it could not be (down, or not answering within the second).
	Samples    int `json:"samples"`
	Unreadable int `json:"unreadable,omitempty"`
}

// ClusterSeries are a scale's charted replication measures over time:
// per node, one point per second it was read while the cycles ran (a
// counter as its increase since the point before), for the report's
// diagrams of lag, queues and conflicts.
type ClusterSeries struct {
	Start time.Time           `json:"start"`
	Nodes []ClusterNodeSeries `json:"nodes"`
}

// ClusterNodeSeries is one node's points: T in seconds after the
// series' start, each measure's values aligned with T.
type ClusterNodeSeries struct {
	Node     int                    `json:"node"`
	T        []float64              `json:"t"`
	Measures []ClusterMeasureSeries `json:"measures,omitempty"`
}

// ClusterMeasureSeries is one measure of a node over time; Chart names
// the diagram it belongs on (lag, queue, conflicts).
type ClusterMeasureSeries struct {
	Name    string    `json:"name"`
	Chart   string    `json:"chart"`
	Counter bool      `json:"counter,omitempty"`
	Values  []float64 `json:"values"`
}
