package driver

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	return string(bytes.Fields(buf)[1])
}

// TestMainThread: Threads = 0 runs the one worker on the calling goroutine
// and reports it as thread 0.
func TestMainThread(t *testing.T) {
	open, _, _ := sqliteDB(t)
	me := goroutineID()
	var elsewhere atomic.Int64
	cfg := Config{
		Cycles: 2, Duration: 50 * time.Millisecond, Open: open,
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error {
				if goroutineID() != me {
					elsewhere.Add(1)
				}
				_, err := s.Engine.Exec(ctx, "SELECT 1")
				return err
			}
		},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if elsewhere.Load() != 0 {
		t.Errorf("%d transactions on another goroutine", elsewhere.Load())
	}
	for _, c := range res.Cycles {
		if len(c.Threads) != 1 || c.Threads[0].Thread != 0 || c.Committed == 0 {
			t.Errorf("cycle %d: %+v", c.Cycle, c.Threads)
		}
	}
}

// TestBetweenCycles: it runs after every cycle with that cycle's result,
// while no transaction runs, and an error from it ends the run.
func TestBetweenCycles(t *testing.T) {
	open, _, _ := sqliteDB(t)
	var between, during atomic.Int64
	var seen []int
	var counts []int64
	stop := errors.New("test: stop")
	cfg := Config{
		Nodes: 2, Threads: 2, Cycles: 4, Duration: 50 * time.Millisecond, Open: open,
		BetweenCycles: func(ctx context.Context, cycle int, res CycleResult) error {
			between.Store(1)
			defer between.Store(0)
			seen = append(seen, cycle)
			counts = append(counts, res.Committed)
			time.Sleep(20 * time.Millisecond) // time for a stray transaction to show
			if cycle == 3 {
				return stop
			}
			return nil
		},
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error {
				if between.Load() == 1 {
					during.Add(1)
				}
				_, err := s.Engine.Exec(ctx, "SELECT 1")
				return err
			}
		},
	}
	res, err := Run(context.Background(), cfg)
	if !errors.Is(err, stop) {
		t.Fatalf("error %v", err)
	}
	if during.Load() != 0 {
		t.Errorf("%d transactions ran during BetweenCycles", during.Load())
	}
	if len(seen) != 3 || seen[0] != 1 || seen[2] != 3 || len(res.Cycles) != 3 {
		t.Fatalf("BetweenCycles saw %v, %d cycles", seen, len(res.Cycles))
	}
	for i, c := range res.Cycles {
		if counts[i] != c.Committed {
			t.Errorf("cycle %d: BetweenCycles saw %d committed, result %d", c.Cycle, counts[i], c.Committed)
		}
		if len(c.Threads) != 4 || c.Threads[2].Node != 1 || c.Threads[2].Thread != 0 {
			t.Errorf("cycle %d threads %+v", c.Cycle, c.Threads)
		}
	}
}

// TestProgress: progress comes from one goroutine at a time, during cycles,
// with counts that grow within a cycle and stay below the cycle's.
func TestProgress(t *testing.T) {
	open, _, _ := sqliteDB(t)
	var inside, overlap atomic.Int64
	var got []Progress
	cfg := Config{
		Threads: 2, Cycles: 2, Duration: 200 * time.Millisecond, Open: open, ProgressEvery: 20 * time.Millisecond,
		Progress: func(p Progress) {
			if inside.Add(1) > 1 {
				overlap.Add(1)
			}
			got = append(got, p)
			inside.Add(-1)
		},
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error {
				_, err := s.Engine.Exec(ctx, "SELECT 1")
				return err
			}
		},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if overlap.Load() != 0 || len(got) == 0 {
		t.Fatalf("%d progress calls, %d overlapping", len(got), overlap.Load())
	}
	for i, p := range got {
		if p.Cycle < 1 || p.Cycle > 2 || p.Cycles != 2 || p.Elapsed > cfg.Duration || p.Committed > res.Cycles[p.Cycle-1].Committed {
			t.Errorf("progress %+v", p)
		}
		if i > 0 && got[i-1].Cycle == p.Cycle && p.Committed < got[i-1].Committed {
			t.Errorf("progress went back: %+v after %+v", p, got[i-1])
		}
	}
}

// A session that cannot be opened is named by its node as every message
// and table numbers load nodes, from 1: a local run's one node is node 1.
func TestOpenFailureNamesNodeFromOne(t *testing.T) {
	cfg := Config{
		Cycles: 1, Duration: 50 * time.Millisecond,
		Open: func(ctx context.Context, _ *Session) (dbms.Engine, error) { return nil, errors.New("refused") },
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error { return nil }
		},
	}
	_, err := Run(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "open session (node 1 thread 0 connection 0)") {
		t.Errorf("error %v, want the session named as node 1's", err)
	}
}
