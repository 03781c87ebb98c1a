package driver

import (
	"bytes"
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestRetry: every 3rd transaction fails its first attempt after 2 ms; with
// Retry the driver repeats it with the same inputs, counts the failed trial
// and measures the residence time from the first attempt's start.
func TestRetry(t *testing.T) {
	open, _, url := sqliteDB(t)
	const threads, seed = 2, 42
	var mismatches, draws atomic.Int64
	firstInput := make([]int64, threads)
	var raw bytes.Buffer
	cfg := Config{
		Threads: threads, Cycles: 2, Duration: 150 * time.Millisecond, Retry: true, Seed: seed,
		Open: open, RawTimes: &raw,
		NewOp: func(node, thread int) Op {
			n := 0
			return func(ctx context.Context, s *Session) error {
				if s.Inputs == nil {
					s.Inputs = new(int64)
				}
				in := s.Inputs.(*int64)
				if s.Attempt == 0 {
					n++
					*in = s.Rand.Int64N(1e9)
					if draws.Add(1); n == 1 {
						firstInput[thread] = *in
					}
					if n%3 == 0 {
						time.Sleep(2 * time.Millisecond)
						return insert(ctx, s, *in, true)
					}
				} else if s.Attempt != 1 {
					mismatches.Add(1) // only the first attempt fails
				}
				return insert(ctx, s, *in, false)
			}
		},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if mismatches.Load() != 0 {
		t.Errorf("%d attempts numbered wrongly", mismatches.Load())
	}
	if res.Failed == 0 || res.Retries != res.Failed {
		t.Errorf("failed %d, retries %d: every failed trial must be retried", res.Failed, res.Retries)
	}
	for j := range threads {
		if want := newRand(seed, 0, j, 0).Int64N(1e9); firstInput[j] != want {
			t.Errorf("thread %d: first input %d, want %d from the seed", j, firstInput[j], want)
		}
	}
	var late int64
	for _, c := range res.Cycles {
		for _, th := range c.Threads {
			late += th.Late
		}
	}
	if got := rows(t, url); got != res.Committed+late {
		t.Errorf("table has %d rows, driver counted %d + %d late", got, res.Committed, late)
	}

	// The same inputs: the table holds each drawn input once at most (a
	// repeated attempt with new inputs would insert a new value).
	e, _ := open(context.Background(), nil)
	defer e.Close()
	r, err := e.QueryRows(context.Background(), "SELECT count(*), count(DISTINCT thread || '-' || input) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	if r[0][0] != r[0][1] {
		t.Errorf("rows %s, distinct inputs %s", r[0][0], r[0][1])
	}

	// A retried transaction's line starts where its failed first attempt
	// started and lasts at least that attempt.
	lines := parseRaw(t, &raw)
	prev := map[[2]int]rawLine{}
	retried := 0
	for _, l := range lines {
		k := [2]int{l.cycle, l.thread}
		if p, seen := prev[k]; seen && !p.ok && l.ok {
			retried++
			if l.start != p.start || l.micros < p.micros || l.micros < 2000 {
				t.Errorf("retried transaction %+v after failed attempt %+v", l, p)
			}
		}
		prev[k] = l
	}
	if retried == 0 || int64(retried) > res.Failed {
		t.Errorf("%d retried transactions for %d failed trials", retried, res.Failed)
	}
}

// TestOpRetries: an Op that retries inside itself (as a pgbench script
// does) says how often in Session.Retries; the driver counts them with the
// attempt, for its type, and counts no failed trial for them.
func TestOpRetries(t *testing.T) {
	open, _, _ := sqliteDB(t)
	cfg := Config{
		Threads: 2, Cycles: 1, Duration: 100 * time.Millisecond, Seed: 1, Open: open,
		Types: []string{"even", "odd"},
		NewOp: func(node, thread int) Op {
			n := 0
			return func(ctx context.Context, s *Session) error {
				n++
				s.Type = n % 2
				s.Retries = s.Type * 3 // odd transactions retried 3 times
				time.Sleep(time.Millisecond)
				return nil
			}
		},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed != 0 {
		t.Errorf("%d failed trials, want none", res.Failed)
	}
	ty := res.Totals.Types
	if len(ty) != 2 {
		t.Fatalf("%d types, want 2", len(ty))
	}
	if ty[1].Committed == 0 || ty[1].Retries != 3*ty[1].Committed || ty[0].Retries != 0 {
		t.Errorf("odd: %d committed, %d retries (want 3 each); even: %d retries (want 0)", ty[1].Committed, ty[1].Retries, ty[0].Retries)
	}
	if res.Retries != ty[1].Retries {
		t.Errorf("run counts %d retries, its types %d", res.Retries, ty[1].Retries)
	}
}
