package results

import "github.com/dbgauge/dbgauge/internal/stats"

// ABTestResults is results.json of an A/B comparison (dbgauge abtest): the
// same queries on two variants of one system, run in interleaved pairs.
type ABTestResults struct {
	Header
	A ABVariant `json:"a"`
	B ABVariant `json:"b"`
	// Workload is "wisconsin" (Size is its base relation size) or "sql"
	// (the --sql file's queries on the user's tables).
	Workload    string   `json:"workload"`
	Size        int64    `json:"size,omitempty"`
	Reps        int      `json:"reps"`
	Warmup      int      `json:"warmup"`
	Caches      []string `json:"caches"` // "warm", "cold" in the order run
	Destination string   `json:"destination"`
	Level       float64  `json:"level"`
	Resamples   int      `json:"resamples"`
	Seed        uint64   `json:"seed"`
	// Order says how the executions were interleaved.
	Order      string       `json:"order"`
	Loads      []ABLoad     `json:"loads,omitempty"`
	Organize   []ABOrganize `json:"organize,omitempty"`
	Queries    []ABQuery    `json:"queries"`
	CacheFlush *CacheFlush  `json:"cache_flush,omitempty"`
	// EngineTimeA and EngineTimeB say where each variant's engine times
	// come from, or why there are none.
	EngineTimeA *EngineTiming `json:"engine_time_a,omitempty"`
	EngineTimeB *EngineTiming `json:"engine_time_b,omitempty"`
}

// ABVariant is one side of the comparison.
type ABVariant struct {
	Name          string   `json:"name"` // "A" or "B"
	DB            string   `json:"db"`   // URL, password redacted
	Engine        string   `json:"engine"`
	EngineVersion string   `json:"engine_version"`
	Session       []string `json:"session,omitempty"`
}

// ABLoad is one relation loaded into one variant's database.
type ABLoad struct {
	Variant string `json:"variant"`
	LoadResult
}

// ABOrganize is one storage organisation step of the Wisconsin relations
// on one variant's database.
type ABOrganize struct {
	Variant      string  `json:"variant"`
	Organization string  `json:"organization"`
	Seconds      float64 `json:"seconds"`
}

// ABQuery is one query compared warm, cold or both.
type ABQuery struct {
	Label        string `json:"label"` // "Q9" or "sql 1"
	Num          int    `json:"num,omitempty"`
	Class        string `json:"class,omitempty"`
	Organization string `json:"organization,omitempty"`
	SQL          string `json:"sql"` // the first pair's text
	// ExpectedRows is the exact Wisconsin cardinality, -1 for --sql (then
	// A and B must agree with each other and across pairs).
	ExpectedRows int64        `json:"expected_rows"`
	Runs         []ABCacheRun `json:"runs"`
}

// ABCacheRun is one query's pairs in one cache mode and their comparison.
type ABCacheRun struct {
	Cache  string `json:"cache"`
	Status string `json:"status"` // StatusOK, StatusMismatch, StatusError, StatusInterrupted
	Reason string `json:"reason,omitempty"`
	Rows   int64  `json:"rows"`
	// AMS[i] and BMS[i] are pair i's times.
	AMS []float64 `json:"a_ms"`
	BMS []float64 `json:"b_ms"`
	// Comparison is in milliseconds; nil when no pair finished.
	Comparison *stats.ABComparison `json:"comparison,omitempty"`
	// RateAPerS and RateBPerS are the effective rates 1 / time in
	// executions per second.
	RateAPerS float64 `json:"rate_a_per_s"`
	RateBPerS float64 `json:"rate_b_per_s"`
	// AEngineMS and BEngineMS are the engines' own times of the pairs
	// (ABTestResults.EngineTimeA and B say whose), and EngineComparison
	// compares them as Comparison compares the client's: its rates and
	// improvement are seed 004's, from the engines' times. Absent when a
	// pair lacks them; EngineNone then says why.
	AEngineMS        []float64           `json:"a_engine_ms,omitempty"`
	BEngineMS        []float64           `json:"b_engine_ms,omitempty"`
	EngineComparison *stats.ABComparison `json:"engine_comparison,omitempty"`
	EngineNone       string              `json:"engine_none,omitempty"`
}

// Run returns q's run in cache mode c, nil when it was not run.
func (q *ABQuery) Run(c string) *ABCacheRun {
	for i := range q.Runs {
		if q.Runs[i].Cache == c {
			return &q.Runs[i]
		}
	}
	return nil
}
