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
