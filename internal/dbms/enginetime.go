package dbms

import "context"

// EngineTime is what an engine says it spent on one statement. TotalMS
// runs from the engine's start of work on the statement to its end, its
// planning included; PlanMS is the part spent planning, when the engine
// tells (HasPlan). What the client measured beyond TotalMS was spent
// outside the engine: network, driver, the transfer of the result.
type EngineTime struct {
	TotalMS float64
	PlanMS  float64
	HasPlan bool
}

// EngineTimer is a session whose engine reports the time it spent on the
// session's statements: seed 004's "set 5" times, taken from the machine
// itself rather than the host. The caller brackets each timed statement
// with BeforeStatement and AfterStatement, outside its own timed region.
type EngineTimer interface {
	// EngineTiming readies the session (profiling on, the extension
	// there) and names where the times come from. An error says why the
	// engine cannot tell on this session (an extension not loaded,
	// performance_schema off, no such accounting at all), in words for
	// the user: the caller records it and times without.
	EngineTiming(ctx context.Context) (EngineSource, error)
	// BeforeStatement is called just before the timed statement (a
	// snapshot, where the engine keeps running sums).
	BeforeStatement(ctx context.Context) error
	// AfterStatement returns the engine's time for stmt, run once since
	// BeforeStatement. ok is false when the engine's record cannot be
	// attributed to that one execution (another session's statement in
	// the sums, an evicted entry): that repetition has no engine time.
	AfterStatement(ctx context.Context, stmt string) (t EngineTime, ok bool, err error)
}

// EngineSource names where an engine's times come from.
type EngineSource struct {
	// Name is the mechanism: "pg_stat_statements",
	// "explain analyze (a separate execution)", "performance_schema",
	// "duckdb profiling".
	Name string
	// Planning says whether planning time is reported apart.
	Planning bool
	// Separate says the times come from a second execution of the
	// statement, not from the timed one.
	Separate bool
	// Note is what else a reader of the times must know.
	Note string
}

// EngineTimeless is an engine that reports no time of its own per
// statement, and says why (for the user: what was looked at).
type EngineTimeless interface {
	NoEngineTime() string
}
