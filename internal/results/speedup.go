package results

// SpeedupResults is results.json of dbgauge speedup (seed 003 §5.2, §6.2):
// the Wisconsin selections and joins at several degrees of parallelism with
// the total memory held constant, optionally at several join memories
// (fixed p) and several page sizes.
type SpeedupResults struct {
	Header
	// Size is the Wisconsin base size N (TENKTUP1/2 hold N tuples).
	Size int64  `json:"size"`
	Reps int    `json:"reps"`
	Seed uint64 `json:"seed"`
	// Destination: "relation" stores each result with CREATE TABLE AS, as
	// the seeds did; "count" counts it inside the engine. Neither sends the
	// rows to the one client, which would serialise what the workers did
	// in parallel.
	Destination string       `json:"destination"`
	Loads       []LoadResult `json:"loads,omitempty"`
	// EngineTime says where the points' engine times come from (the
	// first point's session), or why there are none.
	EngineTime *EngineTiming `json:"engine_time,omitempty"`
	// Speedup is the parallelism part; nil when --parallelism was not given.
	Speedup *SpeedupPart `json:"speedup,omitempty"`
	// Memory is the join-memory sweep at fixed parallelism (--memory-sweep).
	Memory *SpeedupPart `json:"memory_sweep,omitempty"`
	// PageSize is the page-size part (--page-sizes).
	PageSize *SpeedupPart `json:"page_sizes,omitempty"`
}

// SpeedupPart is one of the three sweeps: its variable (p, memory bytes or
// page bytes) and a curve per query, or why the engine has no such knob.
type SpeedupPart struct {
	// Variable is "parallelism", "memory" or "page_size".
	Variable string  `json:"variable"`
	Values   []int64 `json:"values"`
	// Applicable is false for an engine without the knob; Reason says why.
	Applicable bool   `json:"applicable"`
	Reason     string `json:"reason,omitempty"`
	// Ref is the reference p of the speedups (parallelism only); P the
	// fixed p of a memory sweep; MemoryBytes the total memory held constant.
	Ref         int   `json:"ref,omitempty"`
	P           int   `json:"p,omitempty"`
	MemoryBytes int64 `json:"memory_bytes,omitempty"`
	// Knob says how the variable maps onto the engine's settings, and
	// Fixed lists the session settings held for the whole part.
	Knob   string            `json:"knob,omitempty"`
	Fixed  map[string]string `json:"fixed_settings,omitempty"`
	Curves []SpeedupCurve    `json:"curves,omitempty"`
}

// SpeedupCurve is one query at every value of the part's variable.
type SpeedupCurve struct {
	// Query is the Wisconsin number; 0 is the 0% selection seed 003 adds.
	Query int    `json:"query"`
	Class string `json:"class"` // "1% selection", "joinAselB", ...
	Org   string `json:"organization"`
	// Attribute is the selection's or join's attribute: unique2 is the key
	// (the clustering attribute), unique1 the non-key one.
	Attribute string         `json:"attribute"`
	SQL       string         `json:"sql"`
	Expected  int64          `json:"expected_rows"`
	Points    []SpeedupPoint `json:"points"`
}

// SpeedupPoint is one query at one value: the timed repetitions and what
// the engine said about the execution.
type SpeedupPoint struct {
	X int64 `json:"x"` // p, memory bytes or page bytes
	// Settings are the session settings this point ran with.
	Settings []string  `json:"settings,omitempty"`
	TimesMS  []float64 `json:"times_ms"`
	MedianMS float64   `json:"median_ms"`
	MinMS    float64   `json:"min_ms"`
	MaxMS    float64   `json:"max_ms"`
	RSD      float64   `json:"rsd"`
	Rows     int64     `json:"rows"`
	// Speedup is T(ref)/T(p) on the medians; Ideal is p/ref.
	Speedup float64 `json:"speedup,omitempty"`
	Ideal   float64 `json:"ideal,omitempty"`
	// From the untimed warm-up's EXPLAIN ANALYZE where the engine has one
	// (-1: not known): the parallel workers the plan asked for and got,
	// and the most batches of any hash node (1: the build side fitted).
	WorkersPlanned  int `json:"workers_planned"`
	WorkersLaunched int `json:"workers_launched"`
	HashBatches     int `json:"hash_batches"`
	// TempBytes is the largest temporary-file use seen during the warm-up
	// (-1: not known).
	TempBytes int64 `json:"temp_bytes"`
	// PageBytes is the page size the database really has (page sizes).
	PageBytes int64  `json:"page_bytes,omitempty"`
	Error     string `json:"error,omitempty"`
	// EngineMS are the engine's own times of the repetitions, one per
	// TimesMS, and EngineMedianMS their median (docs/wisconsin.md §8);
	// EngineNone says why there are none (the engine keeps none, a
	// repetition's record could not be read, --engine-time=false).
	EngineMS       []float64 `json:"engine_ms,omitempty"`
	EngineMedianMS float64   `json:"engine_median_ms,omitempty"`
	EngineNone     string    `json:"engine_none,omitempty"`
}
