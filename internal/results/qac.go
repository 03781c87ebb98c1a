package results

// QACResults is results.json of a query-at-cardinality run (dbgauge qac):
// one query timed at several cardinalities with the timing protocol.
type QACResults struct {
	Header
	Query         string  `json:"query"` // "wisconsin 1" or the --sql file's text
	Cardinalities []int64 `json:"cardinalities"`
	QEs           int     `json:"qes_per_qac"`
	Cache         string  `json:"cache"`
	Seed          uint64  `json:"seed"`
	// QueryProcess says how the query process was found.
	QueryProcess    string `json:"query_process"`
	DelayAccounting string `json:"delay_accounting"`
	// Measure is the computed time the protocol used: "tick" (the paper's)
	// or "fine" (taskstats/schedstat); both are kept.
	Measure string      `json:"measure"`
	Load    *LoadResult `json:"load,omitempty"`
	QaCs    []QaCResult `json:"qacs"`
	// Protocol is the protocol's verdict: violations, drops, post checks.
	Protocol   *Protocol   `json:"protocol,omitempty"`
	CacheFlush *CacheFlush `json:"cache_flush,omitempty"`
}

// QaCResult is one query at one cardinality.
type QaCResult struct {
	Cardinality  int64      `json:"cardinality"`
	Table        string     `json:"table"`
	SQL          string     `json:"sql"`
	Plan         string     `json:"plan"`
	PlanRestarts int        `json:"plan_restarts"`
	ExpectedRows int64      `json:"expected_rows"` // -1: not known (--sql)
	QEs          []QEResult `json:"qes"`
	// Retained: the Q@C survived step 3; DropReasons say why not.
	Retained    bool     `json:"retained"`
	DropReasons []string `json:"drop_reasons,omitempty"`
	Kept        int      `json:"qes_kept"`
	Measured    Estimate `json:"measured_ms"`
	Computed    Estimate `json:"computed_ms"`      // tick-based, as the paper defines it
	Fine        Estimate `json:"fine_computed_ms"` // from schedstat/taskstats
	// The same over every QE that ran, before the protocol's drops (for
	// comparing the spread of the two times in a disturbed run).
	AllMeasured Estimate `json:"all_qes_measured_ms"`
	AllComputed Estimate `json:"all_qes_computed_ms"`
	AllFine     Estimate `json:"all_qes_fine_computed_ms"`
}

// Estimate is a median with its bootstrap interval and relative spread.
type Estimate struct {
	MedianMS float64 `json:"median"`
	LowMS    float64 `json:"ci_low"`
	HighMS   float64 `json:"ci_high"`
	RSD      float64 `json:"rsd"` // standard deviation / mean
	N        int     `json:"n"`
}

// QEResult is one query execution with the measures the protocol used.
type QEResult struct {
	Index      int     `json:"index"`
	MeasuredMS float64 `json:"measured_ms"`
	ComputedMS float64 `json:"computed_ms"`
	FineMS     float64 `json:"fine_computed_ms"`
	Rows       int64   `json:"rows"`
	// The query process's ticks and the machine's, during the QE.
	QPUser    uint64   `json:"qp_user_ticks"`
	QPSys     uint64   `json:"qp_sys_ticks"`
	QPBlkio   uint64   `json:"qp_blkio_ticks"`
	QPCPUUS   uint64   `json:"qp_cpu_us"`
	QPBlkioNS uint64   `json:"qp_blkio_ns"`
	UPTicks   uint64   `json:"utility_ticks"`
	DPTicks   uint64   `json:"daemon_ticks"`
	IOWait    uint64   `json:"overall_iowait_ticks"`
	Steal     uint64   `json:"overall_steal_ticks"`
	Ephemeral int      `json:"ephemeral,omitempty"`
	Exited    int      `json:"exited_caught,omitempty"`
	Dropped   bool     `json:"dropped"`
	Checks    []string `json:"failed_checks,omitempty"`
	Error     string   `json:"error,omitempty"`
}

// Protocol is the outcome of the protocol's five steps over a run.
type Protocol struct {
	Version string `json:"version"`
	// Dirty: an experiment-wide check failed.
	Dirty          bool        `json:"dirty"`
	Violations     []Violation `json:"violations,omitempty"`
	QEsDroppedPct  float64     `json:"qes_dropped_pct"`
	QaCsDroppedPct float64     `json:"qacs_dropped_pct"`
	PostChecks     []Violation `json:"post_checks,omitempty"`
	Deviations     []string    `json:"deviations,omitempty"`
	Paragraph      string      `json:"paragraph"`
}

// Violation is one failed check: which, where, and the values.
type Violation struct {
	Check  string `json:"check"`
	Scope  string `json:"scope"` // "experiment", "qac", "qe"
	Where  string `json:"where,omitempty"`
	Detail string `json:"detail"`
}
