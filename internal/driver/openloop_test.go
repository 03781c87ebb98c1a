package driver

import (
	"context"
	"math"
	"testing"
	"time"
)

// TestOpenLoopEven: at 250 tps over 3 threads for 0.7 s a cycle holds
// exactly ceil(250 x 0.7) = 175 intended starts, interleaved over the
// threads, and every one of them is accounted for.
func TestOpenLoopEven(t *testing.T) {
	open, _, _ := sqliteDB(t)
	const threads, rate = 3, 250.0
	cfg := Config{
		Threads: threads, Cycles: 2, Duration: 700 * time.Millisecond, Rate: rate, Open: open,
		NewOp: func(node, thread int) Op {
			n := int64(0)
			return func(ctx context.Context, s *Session) error { n++; return insert(ctx, s, n, false) }
		},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := int64(math.Ceil(rate * cfg.Duration.Seconds()))
	var started int64
	for _, c := range res.Cycles {
		var intended int64
		for _, th := range c.Threads {
			intended += th.Intended
			// Thread j takes starts j, j+3, j+6, ... of 0..want-1.
			if w := (want - int64(th.Thread) + threads - 1) / threads; th.Intended != w {
				t.Errorf("cycle %d thread %d: %d intended starts, want %d", c.Cycle, th.Thread, th.Intended, w)
			}
			if th.Intended != th.Committed+th.Late+th.Missed || th.Failed != 0 {
				t.Errorf("cycle %d thread %d: intended %d != committed %d + late %d + missed %d (failed %d)",
					c.Cycle, th.Thread, th.Intended, th.Committed, th.Late, th.Missed, th.Failed)
			}
			started += th.Committed + th.Late
		}
		if intended != want {
			t.Errorf("cycle %d: %d intended starts, want %d", c.Cycle, intended, want)
		}
		if c.Response.TotalCount() != c.Committed || c.Residence.TotalCount() != c.Committed {
			t.Errorf("cycle %d: %d committed, response histogram %d, residence %d", c.Cycle, c.Committed, c.Response.TotalCount(), c.Residence.TotalCount())
		}
	}
	if res.Lag.TotalCount() != started {
		t.Errorf("lag recorded %d times for %d started transactions", res.Lag.TotalCount(), started)
	}
	// Response runs from the intended start, never after the actual one.
	if res.Response.Mean() < res.Residence.Mean()*0.999 {
		t.Errorf("mean response %.0f us below mean residence %.0f us", res.Response.Mean(), res.Residence.Mean())
	}
}

// TestOpenLoopOverload: an op that takes at least 20 ms cannot keep up
// with 100 tps on one thread; the schedule does not slow down with it, the
// starts it cannot make are missed and the lag grows.
func TestOpenLoopOverload(t *testing.T) {
	open, _, _ := sqliteDB(t)
	cfg := Config{
		Threads: 1, Cycles: 1, Duration: 500 * time.Millisecond, Rate: 100, Open: open,
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error {
				time.Sleep(20 * time.Millisecond)
				_, err := s.Engine.Exec(ctx, "SELECT 1")
				return err
			}
		},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	th := res.Cycles[0].Threads[0]
	started := th.Committed + th.Late
	if th.Intended != 50 || started > 26 || th.Missed != th.Intended-started {
		t.Errorf("intended %d, started %d, missed %d: want 50 intended, at most 26 started", th.Intended, started, th.Missed)
	}
	// The k-th start is at least k x 20 ms - k x 10 ms late.
	if lag := res.Lag.Max(); lag < int64(started-1)*10_000 {
		t.Errorf("max lag %d us after %d starts", lag, started)
	}
	if res.Response.Max() < res.Lag.Max() {
		t.Errorf("max response %d us < max lag %d us", res.Response.Max(), res.Lag.Max())
	}
}

// TestOpenLoopPoisson: Poisson arrivals are drawn from the seed, so the
// number of intended starts is the one the schedule yields offline, and it
// is near Rate x D.
func TestOpenLoopPoisson(t *testing.T) {
	open, _, _ := sqliteDB(t)
	const threads, rate, seed = 2, 400.0, 7
	cfg := Config{
		Threads: threads, Cycles: 1, Duration: 500 * time.Millisecond, Rate: rate, Poisson: true, Seed: seed, Open: open,
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error { return nil }
		},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for j := range threads {
		s := schedule{rate: rate, workers: threads, index: j, rnd: newRand(seed, 0, j, 1)}
		s.begin(0)
		for s.next() < cfg.Duration {
			want++
		}
	}
	var got int64
	for _, th := range res.Cycles[0].Threads {
		got += th.Intended
	}
	mean := rate * cfg.Duration.Seconds()
	if got != want || math.Abs(float64(got)-mean) > 5*math.Sqrt(mean) {
		t.Errorf("%d intended starts, schedule gives %d, mean %.0f", got, want, mean)
	}
}
