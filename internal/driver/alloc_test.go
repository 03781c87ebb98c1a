package driver

import (
	"context"
	"errors"
	"io"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// trivialRun drives n in-memory transactions (an Op that touches no engine:
// the driver's own cost) through Run, cancelling when the n-th starts, and
// returns the transactions driven and the heap allocations and bytes per
// transaction over the whole Run, sessions and histograms included.
func trivialRun(t testing.TB, cfg Config, n int64) (ops, failed int64, allocs, bytes float64) {
	open, _, _ := sqliteDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int64
	failure := errors.New("test: planned failure")
	cfg.Open, cfg.Cycles, cfg.Duration = open, 1, time.Hour
	cfg.NewOp = func(node, thread int) Op {
		k := 0
		return func(ctx context.Context, s *Session) error {
			if calls.Add(1) == n {
				cancel()
			}
			if len(cfg.Types) > 1 {
				// Per-type figures: two types, one statement timed.
				s.Type = k % 2
				s.Statement(0, time.Duration(k%1000)*time.Microsecond)
			}
			if k++; cfg.Retry && k%10 == 0 {
				return failure
			}
			return nil
		}
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := Run(ctx, cfg)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, context.Canceled) || res.Interrupted == nil {
		t.Fatalf("error %v", err)
	}
	ops, failed = res.Interrupted.Committed+res.Interrupted.Failed, res.Interrupted.Failed
	return ops, failed, float64(after.Mallocs-before.Mallocs) / float64(ops), float64(after.TotalAlloc-before.TotalAlloc) / float64(ops)
}

// TestDriverAllocations: a million transactions cost the driver no
// allocation each (docs/architecture.md: no allocation per transaction); what it
// allocates is a fixed cost of the run (sessions, histograms, goroutines).
// A failed trial may cost a few: dbms.Classify's errors.As calls allocate.
func TestDriverAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("a million transactions")
	}
	for _, tc := range []struct {
		name string
		cfg  Config
		n    int64
	}{
		{"closed", Config{Threads: 2, Connections: 2}, 1_000_000},
		{"raw", Config{Threads: 2, RawTimes: io.Discard}, 300_000},
		{"retry", Config{Threads: 2, Retry: true}, 300_000},
		{"open", Config{Threads: 2, Rate: 1e7}, 300_000},
		// The live percentiles: a second's histogram per worker, swapped
		// under an uncontended lock.
		{"progress", Config{Threads: 2, Progress: func(Progress) {}, ProgressEvery: 10 * time.Millisecond}, 300_000},
		// Per-type figures: counts and histograms per type and statement.
		{"types", Config{Threads: 2, Retry: true, Types: []string{"a", "b"}, Statements: [][]string{{"s"}, {"s", "t"}},
			Progress: func(Progress) {}, ProgressEvery: 10 * time.Millisecond}, 300_000},
	} {
		ops, failed, allocs, bytes := trivialRun(t, tc.cfg, tc.n)
		t.Logf("%s: %d transactions (%d failed trials), %.5f allocations and %.1f bytes per transaction", tc.name, ops, failed, allocs, bytes)
		if ops < tc.n/2 || allocs > 0.01+4*float64(failed)/float64(ops) {
			t.Errorf("%s: %d transactions, %.5f allocations per transaction, want about none", tc.name, ops, allocs)
		}
	}
}

// BenchmarkDriver measures the driver's cost per transaction around an op
// that does nothing: compare with pgbench's client overhead, not with an
// engine.
func BenchmarkDriver(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  Config
	}{
		{"closed-1thread", Config{Threads: 1}},
		{"closed-2threads", Config{Threads: 2}},
		{"open-1thread", Config{Threads: 1, Rate: 1e9}},
		{"raw-1thread", Config{Threads: 1, RawTimes: io.Discard}},
		// The live percentiles' cost: compare with closed-1thread.
		{"progress-1thread", Config{Threads: 1, Progress: func(Progress) {}}},
		// Per-type figures' cost: two types, a statement timed.
		{"types-1thread", Config{Threads: 1, Types: []string{"a", "b"}, Statements: [][]string{{"s"}, {"s"}}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			_, _, allocs, _ := trivialRun(b, bc.cfg, max(int64(b.N), 1000))
			b.ReportMetric(allocs, "allocs/tx")
		})
	}
}
