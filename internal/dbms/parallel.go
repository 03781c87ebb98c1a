package dbms

import (
	"context"
	"fmt"
)

// ParallelQuery is an engine that can spread one query over several
// processes or threads and bound the memory they use. The speedup
// experiment (internal/experiment/speedup*.go) calls it to set the degree
// of parallelism p (the processes that work on one query, the leader
// included, as seed 003 counts processors) and the join memory; an engine
// without it is "not applicable" for the parallelism and memory parts.
type ParallelQuery interface {
	// FixParallel sets, once per run, what stays the same at every p (e.g.
	// costs that would keep the planner from using the workers it may have)
	// and returns the settings that shape the result, by name, for the
	// run's record.
	FixParallel(ctx context.Context) (map[string]string, error)
	// ParallelSettings are the session settings (statements for SET,
	// without the SET) of p processes sharing memory bytes in all: the
	// caller applies them with SET and records them with every point.
	ParallelSettings(p int, memory int64) []string
	// ParallelKnob says in words how p and a total of memory bytes become
	// settings, for the parallelism part of the run's record.
	ParallelKnob(memory int64) string
	// MemoryKnob says in words how the memory sweep at p is set, for the
	// memory part of the run's record.
	MemoryKnob(p int) string
}

// SerialQuery is an engine without intra-query parallelism that says why,
// for the speedup experiment's "not applicable" record (the caller's
// default names the engine and says it knows no setting).
type SerialQuery interface {
	SerialQuery() string
}

// NoJoinMemory is the speedup experiment's reason for an engine without
// ParallelQuery: it has no join memory dbgauge sets.
func NoJoinMemory(engine string) string {
	return engine + " has no per-query join memory dbgauge sets (only engines with a parallelism and memory knob have one)"
}

// ReadSettings reads settings by name with current_setting(name), which
// PostgreSQL and DuckDB share, for FixParallel's record.
func ReadSettings(ctx context.Context, e interface {
	QueryRows(context.Context, string) ([][]string, error)
}, names []string) (map[string]string, error) {
	out := map[string]string{}
	for _, name := range names {
		v, err := FirstValue(ctx, e, "SELECT current_setting('"+name+"')")
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		out[name] = v
	}
	return out, nil
}
