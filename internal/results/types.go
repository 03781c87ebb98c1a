package results

// Per-transaction-type figures of a load (a workload of several types, or
// one whose statements are timed): per type its commits, failed trials by
// class, retries and residence-time percentiles, and per statement its
// executions and their percentiles. A run stored before these existed has
// none, and loads as before.

// TypeFigures is one transaction type over a scale or a cycle.
type TypeFigures struct {
	Name string `json:"name"`
	// Count is the type's committed transactions; they sum, over the
	// types, to the scale's (or cycle's) transactions.
	Count int64 `json:"count"`
	// Failed counts the type's failed trials, Errors the same by class
	// (summing to Failed), Retries its attempts after the first.
	Failed  int64            `json:"failed"`
	Errors  map[string]int64 `json:"errors,omitempty"`
	Retries int64            `json:"retries"`
	// The committed transactions' residence times.
	Percentiles
	// Limit is the type's response-time limit and the scale's verdict on
	// it, for a type the workload gives one.
	Limit      *TypeLimit         `json:"limit,omitempty"`
	Statements []StatementFigures `json:"statements,omitempty"`
}

// TypeLimit is a type's response-time limit (its Percentile-th percentile
// at most MaxMS) with the percentile measured (ValueMS) and the verdict.
type TypeLimit struct {
	Percentile float64 `json:"percentile"`
	MaxMS      float64 `json:"max_ms"`
	ValueMS    float64 `json:"value_ms"`
	Pass       bool    `json:"pass"`
}

// StatementFigures is one statement of a type: how often it ran in the
// trials counted, and its elapsed times.
type StatementFigures struct {
	Name  string `json:"name"`
	Count int64  `json:"count"`
	Percentiles
}

// Percentiles summarise a distribution of times, in milliseconds, from the
// HdrHistogram that recorded them (3 significant digits).
type Percentiles struct {
	P50MS  float64 `json:"p50_ms"`
	P90MS  float64 `json:"p90_ms"`
	P95MS  float64 `json:"p95_ms"`
	P99MS  float64 `json:"p99_ms"`
	P999MS float64 `json:"p99_9_ms"`
	MaxMS  float64 `json:"max_ms"`
}

// TypeCycle is one cycle of a scale by transaction type.
type TypeCycle struct {
	Cycle int           `json:"cycle"`
	Types []TypeFigures `json:"types"`
}
