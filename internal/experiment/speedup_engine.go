package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// How each engine's knobs carry p, memory and page size (docs/experiments.md
// §4) is the engine's: dbms.ParallelQuery, dbms.PageSizer and the reasons
// of the engines without them (dbms.SerialQuery, dbms.FixedPageSize).
// DECISION: p counts the processes (threads) that work on one query, the
// leader included, as seed 003 counts processors.

func parallelNotApplicable(e dbms.Engine) string {
	if _, ok := e.(dbms.ParallelQuery); ok {
		return ""
	}
	if s, ok := e.(dbms.SerialQuery); ok {
		return s.SerialQuery()
	}
	return e.Name() + " has no intra-query parallelism dbgauge knows how to set"
}

func memoryNotApplicable(e dbms.Engine) string {
	if _, ok := e.(dbms.ParallelQuery); ok {
		return ""
	}
	return dbms.NoJoinMemory(e.Name())
}

func pageSizeNotApplicable(e dbms.Engine) string {
	if _, ok := e.(dbms.PageSizer); ok {
		return ""
	}
	if f, ok := e.(dbms.FixedPageSize); ok {
		return f.FixedPageSize()
	}
	return e.Name() + " lets dbgauge choose no page size"
}

// fixSettings sets what stays the same for the whole run and reads back the
// settings that shape the result (dbms.ParallelQuery's FixParallel).
func fixSettings(ctx context.Context, e dbms.Engine) (map[string]string, error) {
	if pq, ok := e.(dbms.ParallelQuery); ok {
		return pq.FixParallel(ctx)
	}
	return map[string]string{}, nil
}

func parallelKnob(e dbms.Engine, total int64) string {
	if pq, ok := e.(dbms.ParallelQuery); ok {
		return pq.ParallelKnob(total)
	}
	return ""
}

func memoryKnob(e dbms.Engine, p int) string {
	if pq, ok := e.(dbms.ParallelQuery); ok {
		return pq.MemoryKnob(p)
	}
	return ""
}

// parallelSettings are the session settings of p processes sharing total
// bytes of memory.
func parallelSettings(e dbms.Engine, p int, total int64) []string {
	if pq, ok := e.(dbms.ParallelQuery); ok {
		return pq.ParallelSettings(p, total)
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

// warmup runs the query once, untimed, into dest, and learns what the
// engine did: through its plan (dbms.PlanAnalyzer) of the very statement
// timed (it executes it), or by watching its spill directory
// (dbms.SpillDirectory). The timed repetitions then find the same warm
// cache at every point.
func warmup(ctx context.Context, e dbms.Engine, q speedupQuery, dest string) (dbms.PlanFacts, int64, error) {
	f := dbms.PlanFacts{WorkersPlanned: -1, WorkersLaunched: -1, HashBatches: -1}
	if pa, ok := e.(dbms.PlanAnalyzer); ok {
		stmt := countSQL(q.sql)
		if dest == results.DestRelation {
			if err := e.DropTable(ctx, resultTable); err != nil {
				return f, -1, err
			}
			defer e.DropTable(ctx, resultTable)
			stmt = fmt.Sprintf("CREATE TABLE %s AS %s", resultTable, q.sql)
		}
		f, err := pa.AnalyzePlan(ctx, stmt)
		return f, -1, err
	}
	if sd, ok := e.(dbms.SpillDirectory); ok {
		dir, err := sd.SpillDirectory(ctx)
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
