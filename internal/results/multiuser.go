package results

// MultiuserResults is results.json of a multi-user throughput run (dbgauge
// multiuser; seed 004, IDM Performance Test 1): a master starts n users at
// once, each running its own script of retrieves on one Wisconsin relation,
// and measures the wall time until the last one finishes.
type MultiuserResults struct {
	Header
	Table  string `json:"table"`
	Tuples int64  `json:"tuples"`
	// Organization says what indexes the relation has on this engine.
	Organization    string `json:"organization"`
	Retrieves       int    `json:"retrieves_per_user"`
	RowsPerRetrieve int64  `json:"rows_per_retrieve"`
	Users           []int  `json:"users"`
	Reps            int    `json:"reps"`
	// Mode is "goroutines" (one goroutine and one connection per user) or
	// "processes" (one operating-system process per user).
	Mode             string `json:"mode"`
	SubtractOverhead bool   `json:"subtract_overhead"`
	Seed             uint64 `json:"seed"`
	CPUs             int    `json:"cpus"` // online CPUs of the machine that drove the users
	// LoadAverage is the one-minute load average before the measurements.
	LoadAverage *float64 `json:"load_average,omitempty"`
	// OverheadMS is the median of the zero-user runs (the harness alone),
	// present when 0 was among the user counts.
	OverheadMS *float64         `json:"overhead_ms,omitempty"`
	Load       *LoadResult      `json:"load,omitempty"`
	Points     []MultiuserPoint `json:"points"`
	Runs       []MultiuserRun   `json:"runs"`
	// Retry: a measurement cut short by a fault of the connection or the
	// server was measured again, after a backoff capped at BackoffCapS,
	// for at most GiveUpS; Retried lists each cut-short measurement (none
	// of them is among Runs).
	Retry       bool               `json:"retry,omitempty"`
	BackoffCapS float64            `json:"backoff_cap_s,omitempty"`
	GiveUpS     float64            `json:"give_up_s,omitempty"`
	Retried     []MultiuserRetried `json:"retried,omitempty"`
	// Cluster lists the nodes of the replicated cluster the users ran on
	// (a --db naming several hosts), Spread how they were placed, and
	// UserNodes the node (0-based) of each user, in user order: user u's
	// times (user_ms[u] of every run) were spent on node UserNodes[u].
	Cluster   []ClusterNode `json:"cluster,omitempty"`
	Spread    string        `json:"spread,omitempty"`
	UserNodes []int         `json:"user_nodes,omitempty"`
}

// MultiuserRetried is a measurement a fault cut short: not a result, kept
// to show what the fault cost. Class and Error are the first failure's;
// Attempts counts every failed attempt until the measurement could be
// taken (or the run gave up), Errors the same by class.
type MultiuserRetried struct {
	Users    int              `json:"users"`
	Rep      int              `json:"rep"`
	Class    string           `json:"class"` // connection_lost, connection_refused, server_unavailable, too_many_connections
	Error    string           `json:"error"`
	Attempts int              `json:"failed_attempts"`
	Errors   map[string]int64 `json:"errors"`
}

// MultiuserPoint is one user count over its repetitions. Times are the
// wall times in ms, less the overhead when SubtractOverhead is set (RawMS
// keeps the median before). PerUserMS and Thruput are absent where they
// mean nothing (zero users).
type MultiuserPoint struct {
	Users     int      `json:"users"`
	N         int      `json:"n"`
	MedianMS  float64  `json:"median_ms"`
	MinMS     float64  `json:"min_ms"`
	MaxMS     float64  `json:"max_ms"`
	CILowMS   float64  `json:"ci_low_ms"`
	CIHighMS  float64  `json:"ci_high_ms"`
	RawMS     float64  `json:"raw_median_ms"`
	PerUserMS *float64 `json:"per_user_ms,omitempty"`
	Thruput   *float64 `json:"thruput,omitempty"`
}

// MultiuserRun is one measurement: n users started together.
type MultiuserRun struct {
	Users  int     `json:"users"`
	Rep    int     `json:"rep"`
	WallMS float64 `json:"wall_ms"`
	// UserMS is each user's own time from its release to its last row.
	UserMS []float64 `json:"user_ms,omitempty"`
	Rows   int64     `json:"rows"` // fetched by all users together, every one checked
}
