package driver

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// startProgress calls cfg.Progress every ProgressEvery during cycle i from
// a goroutine of its own, reading the workers' atomic counters and their
// second's histograms; the returned func stops it and waits for it.
func (r *runner) startProgress(i int, start time.Duration) (stop func()) {
	if r.cfg.Progress == nil {
		return func() {}
	}
	every := r.cfg.ProgressEvery
	if every == 0 {
		every = time.Second
	}
	// The counters are cumulative over the run; the cycle's count is the
	// difference from their values now, while no worker runs.
	base := r.liveCounts()
	for _, w := range r.workers {
		w.sec.reset() // what the last cycle's last second left
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		second := newLiveHistogram()
		prev, prevAt := int64(0), start
		var prevTypes []int64
		for {
			select {
			case <-quit:
				return
			case <-t.C:
			}
			now := r.liveCounts()
			now.sub(base)
			second.Reset()
			for _, w := range r.workers {
				w.sec.takeInto(second)
			}
			at := time.Since(r.base)
			tps := 0.0
			if dt := (at - prevAt).Seconds(); dt > 0 {
				tps = float64(now.committed-prev) / dt
			}
			p50, p95, p99 := Quantiles(second)
			types := r.typeProgress(now.types, prevTypes, (at - prevAt).Seconds())
			prev, prevAt, prevTypes = now.committed, at, now.types
			r.cfg.Progress(Progress{
				Cycle: i, Cycles: r.cfg.Cycles, Elapsed: r.cfg.elapsed(at - start), Duration: r.cfg.Duration,
				Committed: now.committed, Failed: now.failed, TPS: tps, P50: p50, P95: p95, P99: p99, Errors: now.errors,
				Types: types,
			})
		}
	}()
	return func() { close(quit); <-done }
}

// liveTotals are the workers' live counters added up.
type liveTotals struct {
	committed, failed int64
	errors            ErrorCounts
	types             []int64 // commits per type; nil without live.types
}

func (r *runner) liveCounts() liveTotals {
	var t liveTotals
	for _, w := range r.workers {
		t.committed += w.live.committed.Load()
		t.failed += w.live.failed.Load()
		for c := range w.live.errors {
			t.errors[c] += w.live.errors[c].Load()
		}
		if w.live.types != nil {
			if t.types == nil {
				t.types = make([]int64, len(w.live.types))
			}
			for k := range w.live.types {
				t.types[k] += w.live.types[k].Load()
			}
		}
	}
	return t
}

// sub takes o's counts off t.
func (t *liveTotals) sub(o liveTotals) {
	t.committed -= o.committed
	t.failed -= o.failed
	for c := range t.errors {
		t.errors[c] -= o.errors[c]
	}
	for k := range min(len(t.types), len(o.types)) {
		t.types[k] -= o.types[k]
	}
}

// typeProgress is each type's commits in the cycle so far and its rate
// over the last dt seconds (since prev); nil without per-type counters.
func (r *runner) typeProgress(now, prev []int64, dt float64) []TypeProgress {
	if now == nil {
		return nil
	}
	out := make([]TypeProgress, len(now))
	for k, n := range now {
		out[k] = TypeProgress{Name: r.cfg.typeName(k), Committed: n}
		var p int64
		if k < len(prev) {
			p = prev[k]
		}
		if dt > 0 {
			out[k].TPS = float64(n-p) / dt
		}
	}
	return out
}

// Quantiles are h's p50, p95 and p99 (microseconds recorded) as durations;
// 0 when h is empty.
func Quantiles(h *hdr.Histogram) (p50, p95, p99 time.Duration) {
	if h == nil || h.TotalCount() == 0 {
		return 0, 0, 0
	}
	q := func(p float64) time.Duration { return time.Duration(h.ValueAtQuantile(p)) * time.Microsecond }
	return q(50), q(95), q(99)
}

// elapsed is how much of a cycle has passed d after its start: at most its
// Duration, when it has one.
func (c *Config) elapsed(d time.Duration) time.Duration {
	if c.Duration == 0 {
		return d
	}
	return min(d, c.Duration)
}
