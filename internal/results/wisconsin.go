package results

import (
	"github.com/dbgauge/dbgauge/internal/stats"
)

// Destinations of retrieval results (seed 000 §4.1).
const (
	DestRelation = "relation" // stored into a fresh result relation
	DestClient   = "client"   // rows fetched by the client and discarded
	DestCount    = "count"    // only the count crosses to the client
	DestUpdate   = "update"   // updates have no result destination
)

// Statuses of a query result.
const (
	StatusOK            = "ok"
	StatusMismatch      = "mismatch"
	StatusNotApplicable = "not_applicable"
	StatusError         = "error"
	// StatusInterrupted: Ctrl-C or SIGTERM stopped the run during this
	// result; the execution it stopped is no measurement (any samples are
	// the repetitions that finished before).
	StatusInterrupted = "interrupted"
)

// WisconsinResults is results.json of a Wisconsin run (the contract other
// work and tests rely on: experiment, engine, engine_version, sizes, queries).
type WisconsinResults struct {
	Header
	Sizes        []int64          `json:"sizes"`
	Reps         int              `json:"reps"`
	Cache        string           `json:"cache"`
	Seed         uint64           `json:"seed"`
	Queries      []QueryResult    `json:"queries"`
	Loads        []LoadResult     `json:"loads"`
	Organize     []OrganizeResult `json:"organize"`
	Growth       []GrowthResult   `json:"growth,omitempty"`
	BufferRatios []BufferRatio    `json:"buffer_ratios"`
	CacheFlush   *CacheFlush      `json:"cache_flush,omitempty"`
	Protocol     *Protocol        `json:"protocol,omitempty"`
	// EngineTime says where the engine-reported times of the queries
	// come from, or why there are none.
	EngineTime *EngineTiming `json:"engine_time,omitempty"`
}

// EngineTiming is where a run's engine-reported times come from: Source
// names the mechanism (pg_stat_statements, performance_schema, ...),
// Planning says whether planning time is reported apart, Separate that
// the times are of a second execution of each statement, not of the
// timed one. None says why there are none (the engine keeps none, an
// extension is missing, --engine-time off).
type EngineTiming struct {
	Source   string `json:"source,omitempty"`
	Planning bool   `json:"planning,omitempty"`
	Separate bool   `json:"separate,omitempty"`
	Note     string `json:"note,omitempty"`
	None     string `json:"none,omitempty"`
	// Instrumentation is what the engine recorded of the timed
	// session's statements once it was readied (dbms.Instrumented, read
	// from the engine): a session may turn on for itself what the
	// server leaves off.
	Instrumentation map[string]string `json:"instrumentation,omitempty"`
}

// QueryResult is one query at one size, organisation and destination.
type QueryResult struct {
	Query        int           `json:"query"`
	Class        string        `json:"class"`
	Size         int64         `json:"size"`
	Organization string        `json:"organization"`
	Destination  string        `json:"destination"`
	ExpectedRows int64         `json:"expected_rows"`
	Rows         int64         `json:"rows"`
	Status       string        `json:"status"`
	Reason       string        `json:"reason,omitempty"`
	TimedOut     bool          `json:"timed_out,omitempty"`
	LimitMS      float64       `json:"limit_ms,omitempty"`
	Reps         int           `json:"reps"`
	ElapsedMS    stats.Summary `json:"elapsed_ms"`
	SamplesMS    []float64     `json:"samples_ms"`
	// With --protocol ttp: the timing protocol's computed time (the query
	// process's own CPU and I/O time; median, bootstrap interval, rsd) and
	// whether the protocol kept this Q@C.
	ComputedMS       *Estimate `json:"computed_ms,omitempty"`
	FineComputedMS   *Estimate `json:"fine_computed_ms,omitempty"`
	ProtocolRetained *bool     `json:"protocol_retained,omitempty"`
	ProtocolDrops    []string  `json:"protocol_drops,omitempty"`
	// Engine is the engine's own time of the repetitions, beside the
	// client's (WisconsinResults.EngineTime says whose); absent where
	// the engine could not tell for every repetition, and then
	// EngineNone says why.
	Engine     *EngineTimes `json:"engine,omitempty"`
	EngineNone string       `json:"engine_none,omitempty"`
}

// EngineTimes are the engine-reported times of a query's repetitions,
// one sample per repetition of SamplesMS: the engine's whole time
// (planning included), its planning part when reported, and what the
// client measured beyond the engine ("outside the engine": network,
// driver, the result's transfer), with its share of the client's median.
type EngineTimes struct {
	TotalMS        stats.Summary  `json:"total_ms"`
	TotalSamplesMS []float64      `json:"total_samples_ms"`
	PlanMS         *stats.Summary `json:"plan_ms,omitempty"`
	PlanSamplesMS  []float64      `json:"plan_samples_ms,omitempty"`
	OutsideMS      stats.Summary  `json:"outside_ms"`
	OutsideShare   float64        `json:"outside_share"`
}

// LoadResult is the load of one relation.
type LoadResult struct {
	Relation string  `json:"relation"`
	Table    string  `json:"table"`
	Size     int64   `json:"size"`
	Rows     int64   `json:"rows"`
	Seconds  float64 `json:"seconds"`
	RowsPerS float64 `json:"rows_per_second"`
	// GenerationSeconds estimates the time spent generating rows inside the
	// load (sampled), to show that generation is not the bottleneck.
	GenerationSeconds float64 `json:"generation_seconds"`
}

// OrganizeResult is one change of storage organisation.
type OrganizeResult struct {
	Size         int64   `json:"size"`
	Organization string  `json:"organization"`
	Seconds      float64 `json:"seconds"`
	Status       string  `json:"status"`
	Reason       string  `json:"reason,omitempty"`
}

// GrowthResult is the scale-up verdict of one query over the sizes run.
type GrowthResult struct {
	Query        int          `json:"query"`
	Organization string       `json:"organization"`
	Destination  string       `json:"destination"`
	Growth       stats.Growth `json:"growth"`
}

// BufferRatio is relation size against the engine's buffer pool (docs/wisconsin.md §4:
// the Handbook asks for at least 5).
type BufferRatio struct {
	Size            int64   `json:"size"`
	RelationBytes   int64   `json:"relation_bytes"`
	BufferPoolBytes int64   `json:"buffer_pool_bytes"`
	Ratio           float64 `json:"ratio"`
}

// CacheFlush records what a cold-cache run could and could not empty.
type CacheFlush struct {
	Done    []string `json:"done"`
	NotDone []string `json:"not_done"`
}
