package postgres

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var _ dbms.ParallelQuery = (*Engine)(nil)

// FixParallel makes parallel plans cost nothing to start and lets any
// table qualify, so that the planner uses the workers it may have on
// 100,000-tuple relations as well (its defaults keep small tables serial,
// which would measure the cost model, not the parallel execution), and
// reads back the settings that shape a parallel query.
func (e *Engine) FixParallel(ctx context.Context) (map[string]string, error) {
	set := []string{"parallel_setup_cost = 0", "parallel_tuple_cost = 0", "min_parallel_table_scan_size = 0", "min_parallel_index_scan_size = 0"}
	read := []string{"parallel_setup_cost", "parallel_tuple_cost", "min_parallel_table_scan_size", "min_parallel_index_scan_size",
		"hash_mem_multiplier", "max_parallel_workers", "max_worker_processes", "enable_parallel_hash", "parallel_leader_participation", "shared_buffers", "jit"}
	for _, s := range set {
		if _, err := e.Exec(ctx, "SET "+s); err != nil {
			return nil, fmt.Errorf("SET %s: %w", s, err)
		}
	}
	return dbms.ReadSettings(ctx, e, read)
}

// ParallelSettings: p is the leader and max_parallel_workers_per_gather =
// p-1 workers (p = 1 is the serial plan); work_mem, per process, is the
// memory over p (in kB, at least PostgreSQL's smallest, 64 kB), so that the
// total stays constant.
func (e *Engine) ParallelSettings(p int, memory int64) []string {
	return parallelSettings(p, memory)
}

// parallelSettings is Engine.ParallelSettings, without a session.
func parallelSettings(p int, memory int64) []string {
	kb := max(memory/int64(p)/1024, 64)
	return []string{fmt.Sprintf("max_parallel_workers_per_gather = %d", p-1), fmt.Sprintf("work_mem = '%dkB'", kb)}
}

// ParallelKnob says how p and the total memory are set.
func (e *Engine) ParallelKnob(memory int64) string {
	return fmt.Sprintf("p = leader + max_parallel_workers_per_gather (= p-1) workers; work_mem = %d bytes / p, so the total stays constant", memory)
}

// MemoryKnob says how the memory sweep at p is set.
func (e *Engine) MemoryKnob(p int) string {
	return fmt.Sprintf("p = %d (max_parallel_workers_per_gather = %d); work_mem = memory / p", p, p-1)
}
