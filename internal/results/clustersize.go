package results

// ClusterSizeResults is throughput and latency against the number of
// nodes of a replicated cluster (dbgauge clustersize): the same one-scale
// sweep on nodes 1 to k of the cluster, for each size k, the others
// stopped. Each size's sweep is a dsbench run directory of its own
// (Dir, under the run directory).
type ClusterSizeResults struct {
	Header
	// Mode is the workload's registered name; Workload describes it (nil
	// in runs stored before it was recorded).
	Mode        string        `json:"mode"`
	Workload    *WorkloadInfo `json:"workload,omitempty"`
	Spread      string        `json:"spread"`
	Scale       int64         `json:"scale"`
	Cycles      int           `json:"cycles"`
	DurationS   float64       `json:"duration_s"`
	Threads     int           `json:"threads"`
	Connections int           `json:"connections"`
	Session     []string      `json:"session,omitempty"`
	// Cluster is every node and its role when the run began.
	Cluster []ClusterNode      `json:"cluster"`
	Sizes   []ClusterSizePoint `json:"sizes"`
}

// ClusterSizePoint is the sweep on the cluster's first Nodes nodes.
type ClusterSizePoint struct {
	Nodes int    `json:"nodes"`
	Dir   string `json:"dir"`
	// Complete and Consistent are the sweep's; Error what ended it.
	Complete   bool   `json:"complete"`
	Consistent bool   `json:"consistent"`
	Error      string `json:"error,omitempty"`
	// CyclesTPS are the cycles' rates T_i; their median, mean, minimum
	// and maximum follow.
	CyclesTPS []float64 `json:"cycles_tps"`
	MedianTPS float64   `json:"median_tps"`
	MeanTPS   float64   `json:"mean_tps"`
	MinTPS    float64   `json:"min_tps"`
	MaxTPS    float64   `json:"max_tps"`
	// Residence time quantiles over the cycles, milliseconds.
	P50MS        float64          `json:"p50_ms"`
	P95MS        float64          `json:"p95_ms"`
	P99MS        float64          `json:"p99_ms"`
	Transactions int64            `json:"transactions"`
	Failed       int64            `json:"failed"`
	Errors       map[string]int64 `json:"errors,omitempty"`
	// Served is what each node served; Measures each node's replication
	// measures (the sweep's cluster_nodes and cluster_measures).
	Served   []ClusterNodeServed   `json:"served,omitempty"`
	Measures []ClusterNodeMeasures `json:"measures,omitempty"`
	// Acks is the check of acknowledged writes (--check-acks).
	Acks *AckCheck `json:"acks,omitempty"`
}

// JournalKind files a size's point in the journal as it is measured.
func (ClusterSizePoint) JournalKind() string { return "cluster_size" }
