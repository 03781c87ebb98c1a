package driver

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestTransactionsPerThread: with Transactions and no Duration every
// thread counts exactly its number (commits, failed trials and skipped
// ones together), the cycle ends when the last thread has, and its
// Demanded is the time it took. ErrSkip counts toward the number and in
// neither the commits nor the failures.
func TestTransactionsPerThread(t *testing.T) {
	open, _, url := sqliteDB(t)
	const threads, each = 3, 7
	cfg := Config{
		Cycles: 1, Threads: threads, Transactions: each, Open: open,
		NewOp: func(node, thread int) Op {
			n := 0
			return func(ctx context.Context, s *Session) error {
				n++
				switch {
				case thread == 1 && n%3 == 0:
					return ErrSkip
				case thread == 2 && n%2 == 0:
					return insert(ctx, s, int64(n), true)
				}
				return insert(ctx, s, int64(n), false)
			}
		},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Cycles[0]
	if c.Demanded <= 0 || !c.End.Equal(c.Stopped) {
		t.Errorf("demanded %v, end %v, stopped %v: want the time the cycle took", c.Demanded, c.End, c.Stopped)
	}
	// thread 0: 7 commits; thread 1: n=3,6 skipped, 5 commits; thread 2:
	// n=2,4,6 failed, 4 commits.
	want := map[int][2]int64{0: {7, 0}, 1: {5, 0}, 2: {4, 3}}
	for _, th := range c.Threads {
		if got := [2]int64{th.Committed, th.Failed}; got != want[th.Thread] {
			t.Errorf("thread %d: committed, failed = %v, want %v", th.Thread, got, want[th.Thread])
		}
	}
	if n := rows(t, url); n != 16 {
		t.Errorf("%d rows inserted, want 16 (the commits)", n)
	}
}

// TestErrStop: an Op that returns ErrStop ends its thread's cycle without
// a failed trial; the other threads go on to the end.
func TestErrStop(t *testing.T) {
	open, _, _ := sqliteDB(t)
	cfg := Config{
		Cycles: 1, Threads: 2, Duration: 200 * time.Millisecond, Open: open,
		NewOp: func(node, thread int) Op {
			n := 0
			return func(ctx context.Context, s *Session) error {
				if n++; thread == 0 && n == 3 {
					return ErrStop
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
	for _, th := range res.Cycles[0].Threads {
		switch {
		case th.Thread == 0 && (th.Committed != 2 || th.Failed != 0):
			t.Errorf("stopped thread: committed %d, failed %d, want 2 and 0", th.Committed, th.Failed)
		case th.Thread == 1 && th.Committed <= 2:
			t.Errorf("other thread committed %d: it should have gone on", th.Committed)
		}
	}
}

// TestTransactionsConfig: a run needs a Duration or a count.
func TestTransactionsConfig(t *testing.T) {
	open, _, _ := sqliteDB(t)
	op := func(int, int) Op { return func(context.Context, *Session) error { return nil } }
	for _, cfg := range []Config{
		{Cycles: 1, Open: open, NewOp: op},
		{Cycles: 1, Open: open, NewOp: op, Transactions: -1, Duration: time.Second},
	} {
		if _, err := Run(context.Background(), cfg); err == nil || errors.Is(err, context.Canceled) {
			t.Errorf("%+v: err %v, want a refusal", cfg.Transactions, err)
		}
	}
}
