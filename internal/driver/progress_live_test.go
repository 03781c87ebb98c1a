package driver

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// TestProgressLive: Progress carries the percentiles of the transactions
// committed since its last call, ordered, and the cycle's failed trials by
// class so far, which add up to its failed count and never exceed the
// cycle's final counts.
func TestProgressLive(t *testing.T) {
	open, _, _ := sqliteDB(t)
	var got []Progress
	var n atomic.Int64
	cfg := Config{
		Threads: 2, Cycles: 2, Duration: 300 * time.Millisecond, Open: open, ProgressEvery: 20 * time.Millisecond,
		Progress: func(p Progress) { got = append(got, p) },
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error {
				i := n.Add(1)
				return insert(ctx, s, i, i%3 == 0)
			}
		},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	withTimes := 0
	for i, p := range got {
		var errs int64
		for _, e := range p.Errors {
			errs += e
		}
		if errs != p.Failed || p.Errors[dbms.Other] != p.Failed {
			t.Errorf("progress %d: errors by class %v, failed %d", i, p.Errors.Map(), p.Failed)
		}
		c := res.Cycles[p.Cycle-1]
		if p.Errors[dbms.Other] > c.Errors[dbms.Other] {
			t.Errorf("progress %d: %d failed so far, the cycle's %d", i, p.Errors[dbms.Other], c.Errors[dbms.Other])
		}
		if !(p.P50 <= p.P95 && p.P95 <= p.P99) {
			t.Errorf("progress %d: p50 %v p95 %v p99 %v out of order", i, p.P50, p.P95, p.P99)
		}
		if p.P99 > 0 {
			withTimes++
		}
	}
	if withTimes == 0 || res.Committed == 0 || res.Failed == 0 {
		t.Fatalf("%d progress calls with percentiles, %d committed, %d failed", withTimes, res.Committed, res.Failed)
	}
}
