package driver

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"
)

// unreachable is a rate no client meets: a million starts per nanosecond.
const unreachable = 1e12

// runOrHang runs cfg and fails the test when Run has not returned within
// limit: a generous bound that only says "it did not hang".
func runOrHang(t *testing.T, ctx context.Context, cfg Config, limit time.Duration) (*Result, error) {
	t.Helper()
	type out struct {
		res *Result
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := Run(ctx, cfg)
		done <- out{res, err}
	}()
	select {
	case o := <-done:
		return o.res, o.err
	case <-time.After(limit):
		t.Fatalf("Run did not return within %v", limit)
		return nil, nil
	}
}

// TestOpenLoopUnreachableRate: at a rate the client cannot meet, a cycle
// still ends on time: every intended start the thread could not make is
// counted as missed (there are ceil(Rate x D) of them in all, evenly
// spaced), without visiting each one.
func TestOpenLoopUnreachableRate(t *testing.T) {
	open, _, _ := sqliteDB(t)
	for _, poisson := range []bool{false, true} {
		name := "even"
		if poisson {
			name = "poisson"
		}
		t.Run(name, func(t *testing.T) {
			cfg := Config{
				Threads: 1, Cycles: 2, Duration: time.Second, Rate: unreachable, Poisson: poisson, Seed: 3, Open: open,
				NewOp: func(node, thread int) Op {
					return func(ctx context.Context, s *Session) error {
						_, err := s.Engine.Exec(ctx, "SELECT 1")
						return err
					}
				},
			}
			res, err := runOrHang(t, context.Background(), cfg, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			mean := unreachable * cfg.Duration.Seconds()
			for _, c := range res.Cycles {
				th := c.Threads[0]
				if th.Committed == 0 || th.Missed == 0 || th.Intended != th.Committed+th.Late+th.Missed {
					t.Errorf("cycle %d: intended %d, committed %d, late %d, missed %d", c.Cycle, th.Intended, th.Committed, th.Late, th.Missed)
				}
				switch {
				case !poisson && th.Intended != int64(mean):
					t.Errorf("cycle %d: %d intended starts, want %.0f", c.Cycle, th.Intended, mean)
				case poisson && math.Abs(float64(th.Intended)-mean) > 6*math.Sqrt(mean):
					t.Errorf("cycle %d: %d intended starts, want about %.0f", c.Cycle, th.Intended, mean)
				}
			}
			if len(res.Cycles) != 2 {
				t.Errorf("%d cycles, want 2", len(res.Cycles))
			}
		})
	}
}

// TestOpenLoopUnreachableRateCancel: Ctrl-C during a cycle at an
// unreachable rate stops the run at once; the cycle that ended before is
// kept, the interrupted one is returned apart.
func TestOpenLoopUnreachableRateCancel(t *testing.T) {
	open, _, _ := sqliteDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{
		Threads: 2, Cycles: 3, Duration: time.Second, Rate: unreachable, Open: open,
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error {
				_, err := s.Engine.Exec(ctx, "SELECT 1")
				return err
			}
		},
		// The signal arrives in the middle of cycle 2.
		BetweenCycles: func(ctx context.Context, cycle int, res CycleResult) error {
			if cycle == 1 {
				time.AfterFunc(300*time.Millisecond, cancel)
			}
			return nil
		},
	}
	res, err := runOrHang(t, ctx, cfg, 10*time.Second)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if len(res.Cycles) != 1 || res.Interrupted == nil || res.Interrupted.Cycle != 2 {
		t.Fatalf("%d cycles kept, interrupted %v: want cycle 1 kept and cycle 2 interrupted", len(res.Cycles), res.Interrupted)
	}
	for _, th := range res.Cycles[0].Threads {
		if th.Missed == 0 || th.Intended != th.Committed+th.Late+th.Missed {
			t.Errorf("cycle 1 thread %d: intended %d, committed %d, late %d, missed %d", th.Thread, th.Intended, th.Committed, th.Late, th.Missed)
		}
	}
}

// TestScheduleSkip: skip counts exactly the starts next would still have
// yielded before the end (evenly spaced, and Poisson below poissonDraws),
// from anywhere in the cycle.
func TestScheduleSkip(t *testing.T) {
	start, end := 1234567*time.Nanosecond, 1234567*time.Nanosecond+700*time.Millisecond
	for _, rate := range []float64{1, 7.3, 250, 1e4, 3.3e5, 1e7} {
		for _, workers := range []int{1, 3} {
			for index := range workers {
				for _, poisson := range []bool{false, true} {
					a := schedule{rate: rate, workers: workers, index: index}
					b := a
					if poisson {
						a.rnd, b.rnd = newRand(5, 0, index, 1), newRand(5, 0, index, 1)
					}
					a.begin(start)
					b.begin(start)
					taken := int64(rate * 0.3 / float64(workers))
					for range taken {
						a.next()
						b.next()
					}
					var want int64
					for b.next() < end {
						want++
					}
					if got := a.skip(end); got != want && (!poisson || rate*0.4/float64(workers) <= poissonDraws) {
						t.Errorf("rate %v, %d workers, worker %d, poisson %v: skip %d, next yields %d", rate, workers, index, poisson, got, want)
					}
				}
			}
		}
	}
}
