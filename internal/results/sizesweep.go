package results

import "github.com/dbgauge/dbgauge/internal/stats"

// Access methods of a size sweep (seed 004 Test 2): a scan of a heap, a
// clustered index on unique2, a non-clustered index on unique1.
const (
	AccessNone         = "none"
	AccessClustered    = "clustered"
	AccessNonClustered = "nonclustered"
)

// SizeSweepResults is results.json of dbgauge sizesweep (docs/experiments.md
// §2): one kind of simple retrieve timed on Wisconsin relations of several
// sizes under each access method.
type SizeSweepResults struct {
	Header
	// Retrieve is the kind of query: "single" (one tuple by equality, seed
	// 004 Test 2) or "1pct" (a 1% range, seed 003 §5.1).
	Retrieve string   `json:"retrieve"`
	Sizes    []int64  `json:"sizes"`
	Access   []string `json:"access"`
	Reps     int      `json:"reps"`
	Warmup   int      `json:"warmup"`
	Seed     uint64   `json:"seed"`
	// Basis is which time the analysis and the diagram use: "mean" (the
	// seed's average) or "median" (robust to a disturbed repetition).
	Basis    string             `json:"basis"`
	Loads    []LoadResult       `json:"loads,omitempty"`
	Points   []SizeSweepPoint   `json:"points"`
	Analysis *SizeSweepAnalysis `json:"analysis,omitempty"`
	// EngineTime says where the engine's own times of the retrieves come
	// from, or why there are none.
	EngineTime *EngineTiming `json:"engine_time,omitempty"`
}

// SizeSweepPoint is one size under one access method.
type SizeSweepPoint struct {
	Size      int64  `json:"size"`
	Access    string `json:"access"`
	Table     string `json:"table"`
	Attribute string `json:"attribute"` // the restricted attribute
	// SQL is a sample statement, the one Plan shows; the repetitions'
	// constants are Keys.
	SQL          string `json:"sql"`
	Plan         string `json:"plan,omitempty"`
	ExpectedRows int64  `json:"expected_rows"`
	// TimesMS are the timed repetitions in order, Keys their constants.
	TimesMS []float64     `json:"times_ms"`
	Keys    []int64       `json:"keys"`
	Summary stats.Summary `json:"summary_ms"`
	// EngineMS are the engine's own times of the repetitions, one per
	// TimesMS (SizeSweepResults.EngineTime says whose), summarised in
	// EngineSummary; absent when a repetition lacked one, and EngineNone
	// says why.
	EngineMS      []float64      `json:"engine_ms,omitempty"`
	EngineSummary *stats.Summary `json:"engine_summary_ms,omitempty"`
	EngineNone    string         `json:"engine_none,omitempty"`
}

// SizeSweepAnalysis is what the times say (seed 004 Test 2).
type SizeSweepAnalysis struct {
	// NoIndexFit is time = intercept + slope x size for the scans, ms and
	// ms per tuple.
	NoIndexFit *stats.LineFit `json:"no_index_fit,omitempty"`
	// Flatness is the slowest over the fastest size per indexed method.
	Flatness []AccessFlatness `json:"flatness,omitempty"`
	// NonClusteredOverClustered is seed 004 Table 10 over Sizes.
	NonClusteredOverClustered *SizeSweepRatios `json:"nonclustered_over_clustered,omitempty"`
	// Predictions: per method, the largest size predicted from the others.
	Predictions []AccessPrediction `json:"predictions,omitempty"`
	Notes       []string           `json:"notes,omitempty"`
}

// AccessFlatness is one indexed method's flatness.
type AccessFlatness struct {
	Access string `json:"access"`
	stats.Flatness
}

// SizeSweepRatios is a ratio of two methods' times at the sizes both
// measured.
type SizeSweepRatios struct {
	Sizes []int64 `json:"sizes"`
	stats.Ratios
}

// AccessPrediction is one method's scale-model prediction.
type AccessPrediction struct {
	Access string `json:"access"`
	stats.Prediction
}

// BasisMS is the point's time the analysis uses: the median for basis
// "median", the mean otherwise.
func (p SizeSweepPoint) BasisMS(basis string) float64 {
	if basis == "median" {
		return p.Summary.Median
	}
	return p.Summary.Mean
}
