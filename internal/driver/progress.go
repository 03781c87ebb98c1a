package driver

import (
	"time"
)

// startProgress calls cfg.Progress every ProgressEvery during cycle i from
// a goroutine of its own, reading the workers' atomic counters; the returned
// func stops it and waits for it.
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
	var base0, fail0 int64
	for _, w := range r.workers {
		base0 += w.live.committed.Load()
		fail0 += w.live.failed.Load()
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		prev, prevAt := int64(0), start
		for {
			select {
			case <-quit:
				return
			case <-t.C:
			}
			var committed, failed int64
			for _, w := range r.workers {
				committed += w.live.committed.Load()
				failed += w.live.failed.Load()
			}
			committed, failed = committed-base0, failed-fail0
			now := time.Since(r.base)
			tps := 0.0
			if dt := (now - prevAt).Seconds(); dt > 0 {
				tps = float64(committed-prev) / dt
			}
			prev, prevAt = committed, now
			r.cfg.Progress(Progress{
				Cycle: i, Cycles: r.cfg.Cycles, Elapsed: min(now-start, r.cfg.Duration), Duration: r.cfg.Duration,
				Committed: committed, Failed: failed, TPS: tps,
			})
		}
	}()
	return func() { close(quit); <-done }
}
