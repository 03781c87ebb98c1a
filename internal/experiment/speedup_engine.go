package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// How each engine's knobs carry p, memory and page size (specs/experiments.md
// §4). DECISION: p counts the processes (threads) that work on one query,
// the leader included, as seed 003 counts processors: PostgreSQL runs p
// with max_parallel_workers_per_gather = p-1 (p=1 is the serial plan).

func parallelNotApplicable(engine string) string {
	switch engine {
	case "postgres", "duckdb":
		return ""
	case "mysql":
		return "MariaDB/MySQL run one query in one thread (no intra-query parallelism)"
	case "sqlite":
		return "SQLite runs one statement in one thread (no intra-query parallelism)"
	case "firebird":
		return "Firebird runs one statement in one thread (no intra-query parallelism for queries)"
	}
	return engine + " has no intra-query parallelism dbgauge knows how to set"
}

func memoryNotApplicable(engine string) string {
	switch engine {
	case "postgres", "duckdb":
		return ""
	}
	return engine + " has no per-query join memory dbgauge sets (PostgreSQL work_mem and DuckDB memory_limit are the measured knobs)"
}

func pageSizeNotApplicable(engine string) string {
	switch engine {
	case "sqlite", "firebird":
		return ""
	case "postgres":
		return "PostgreSQL's page size (BLCKSZ) is fixed when the server is built"
	case "mysql":
		return "InnoDB's page size (innodb_page_size) is fixed when the instance is initialised"
	case "duckdb":
		return "DuckDB's block size is fixed for a database file by the build (dbgauge does not vary it)"
	}
	return engine + " lets dbgauge choose no page size"
}

// fixSettings sets what stays the same for the whole run and reads back the
// settings that shape the result. PostgreSQL: parallel plans cost nothing
// to start and any table qualifies, so the planner uses the workers it may
// have on 100,000-tuple relations as well (its defaults keep small tables
// serial, which would measure the cost model, not the parallel execution).
func fixSettings(ctx context.Context, e dbms.Engine) (map[string]string, error) {
	fixed := map[string]string{}
	var set, read []string
	switch e.Name() {
	case "postgres":
		set = []string{"parallel_setup_cost = 0", "parallel_tuple_cost = 0", "min_parallel_table_scan_size = 0", "min_parallel_index_scan_size = 0"}
		read = []string{"parallel_setup_cost", "parallel_tuple_cost", "min_parallel_table_scan_size", "min_parallel_index_scan_size",
			"hash_mem_multiplier", "max_parallel_workers", "max_worker_processes", "enable_parallel_hash", "parallel_leader_participation", "shared_buffers", "jit"}
	case "duckdb":
		read = []string{"threads", "memory_limit", "temp_directory", "preserve_insertion_order"}
	default:
		return fixed, nil
	}
	for _, s := range set {
		if _, err := e.Exec(ctx, "SET "+s); err != nil {
			return nil, fmt.Errorf("SET %s: %w", s, err)
		}
	}
	for _, name := range read {
		v, err := dbms.FirstValue(ctx, e, "SELECT current_setting('"+name+"')")
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		fixed[name] = v
	}
	return fixed, nil
}

func parallelKnob(engine string, total int64) string {
	switch engine {
	case "postgres":
		return fmt.Sprintf("p = leader + max_parallel_workers_per_gather (= p-1) workers; work_mem = %d bytes / p, so the total stays constant", total)
	case "duckdb":
		return fmt.Sprintf("p = threads; memory_limit = %d bytes at every p", total)
	}
	return ""
}

func memoryKnob(engine string, p int) string {
	switch engine {
	case "postgres":
		return fmt.Sprintf("p = %d (max_parallel_workers_per_gather = %d); work_mem = memory / p", p, p-1)
	case "duckdb":
		return fmt.Sprintf("threads = %d; memory_limit = memory", p)
	}
	return ""
}

// pointSettings are the session settings of p processes sharing total
// bytes of memory.
func pointSettings(engine string, p int, total int64) []string {
	switch engine {
	case "postgres":
		// work_mem is in kB and at least 64 kB.
		kb := max(total/int64(p)/1024, 64)
		return []string{fmt.Sprintf("max_parallel_workers_per_gather = %d", p-1), fmt.Sprintf("work_mem = '%dkB'", kb)}
	case "duckdb":
		return []string{fmt.Sprintf("threads = %d", p), fmt.Sprintf("memory_limit = '%dKiB'", max(total/1024, 1))}
	}
	return nil
}

func applySettings(ctx context.Context, e dbms.Engine, settings []string) error {
	for _, s := range settings {
		if _, err := e.Exec(ctx, "SET "+s); err != nil {
			return fmt.Errorf("SET %s: %w", s, err)
		}
	}
	return nil
}

// planFacts is what an EXPLAIN ANALYZE says about parallelism and spills.
type planFacts struct {
	planned, launched, batches int
}

// pgPlanFacts reads PostgreSQL's EXPLAIN (ANALYZE, FORMAT JSON): the most
// workers any Gather planned and launched, and the most batches of any
// Hash node (1: the build side fitted in memory).
func pgPlanFacts(doc string) (planFacts, error) {
	var plans []struct {
		Plan map[string]any `json:"Plan"`
	}
	if err := json.Unmarshal([]byte(doc), &plans); err != nil {
		return planFacts{}, fmt.Errorf("EXPLAIN JSON: %w", err)
	}
	f := planFacts{}
	var walk func(n map[string]any)
	walk = func(n map[string]any) {
		num := func(k string) int {
			if v, ok := n[k].(float64); ok {
				return int(v)
			}
			return 0
		}
		f.planned = max(f.planned, num("Workers Planned"))
		f.launched = max(f.launched, num("Workers Launched"))
		f.batches = max(f.batches, num("Hash Batches"))
		if kids, ok := n["Plans"].([]any); ok {
			for _, k := range kids {
				if m, ok := k.(map[string]any); ok {
					walk(m)
				}
			}
		}
	}
	for _, p := range plans {
		walk(p.Plan)
	}
	if f.batches == 0 {
		f.batches = -1 // no hash node: no batches to report
	}
	return f, nil
}

// warmup runs the query once, untimed, into dest, and learns what the
// engine did: PostgreSQL through EXPLAIN ANALYZE of the very statement
// timed (it executes it), DuckDB by watching its temporary directory. The
// timed repetitions then find the same warm cache at every point.
func warmup(ctx context.Context, e dbms.Engine, q speedupQuery, dest string) (planFacts, int64, error) {
	f := planFacts{planned: -1, launched: -1, batches: -1}
	switch e.Name() {
	case "postgres":
		stmt := countSQL(q.sql)
		if dest == results.DestRelation {
			if err := e.DropTable(ctx, resultTable); err != nil {
				return f, -1, err
			}
			defer e.DropTable(ctx, resultTable)
			stmt = fmt.Sprintf("CREATE TABLE %s AS %s", resultTable, q.sql)
		}
		doc, err := dbms.FirstValue(ctx, e, "EXPLAIN (ANALYZE, FORMAT JSON) "+stmt)
		if err != nil {
			return f, -1, err
		}
		f, err = pgPlanFacts(doc)
		return f, -1, err
	case "duckdb":
		dir, err := dbms.FirstValue(ctx, e, "SELECT current_setting('temp_directory')")
		if err != nil || dir == "" {
			_, _, err := intoDest(ctx, e, q.sql, q.columns, dest)
			return f, -1, err
		}
		w := watchDir(dir)
		_, _, err = intoDest(ctx, e, q.sql, q.columns, dest)
		return f, w.stop(), err
	}
	_, _, err := intoDest(ctx, e, q.sql, q.columns, dest)
	return f, -1, err
}

// dirWatch polls a directory's size and keeps the largest it saw: DuckDB
// removes its temporary files when the query ends, so only watching it
// run shows the spill.
type dirWatch struct {
	done chan struct{}
	wg   sync.WaitGroup
	peak int64
}

func watchDir(dir string) *dirWatch {
	d := &dirWatch{done: make(chan struct{})}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			d.peak = max(d.peak, dirBytes(dir))
			select {
			case <-d.done:
				return
			case <-t.C:
			}
		}
	}()
	return d
}

func (d *dirWatch) stop() int64 {
	close(d.done)
	d.wg.Wait()
	return d.peak
}

// dirBytes is the size of the files under dir (0 when it does not exist).
func dirBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, de os.DirEntry, err error) error {
		if err == nil && !de.IsDir() {
			if info, err := de.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
