package duckdb

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var _ dbms.ParallelQuery = (*Engine)(nil)

// FixParallel changes nothing and reads back the settings that shape a
// parallel query.
func (e *Engine) FixParallel(ctx context.Context) (map[string]string, error) {
	return dbms.ReadSettings(ctx, e, []string{"threads", "memory_limit", "temp_directory", "preserve_insertion_order"})
}

// ParallelSettings: p threads, and the whole memory for them (DuckDB's
// memory_limit is the database's, not a thread's).
func (e *Engine) ParallelSettings(p int, memory int64) []string {
	return parallelSettings(p, memory)
}

// parallelSettings is Engine.ParallelSettings, without a session.
func parallelSettings(p int, memory int64) []string {
	return []string{fmt.Sprintf("threads = %d", p), fmt.Sprintf("memory_limit = '%dKiB'", max(memory/1024, 1))}
}

// ParallelKnob says how p and the total memory are set.
func (e *Engine) ParallelKnob(memory int64) string {
	return fmt.Sprintf("p = threads; memory_limit = %d bytes at every p", memory)
}

// MemoryKnob says how the memory sweep at p is set.
func (e *Engine) MemoryKnob(p int) string {
	return fmt.Sprintf("threads = %d; memory_limit = memory", p)
}
