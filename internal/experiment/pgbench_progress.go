package experiment

import (
	"time"

	"github.com/dbgauge/dbgauge/internal/pgbench"
)

// startProgress writes pgbench's -P lines (to standard error) every -P
// seconds from the start of benchmarking, over the transactions of each
// interval, as pgbench does; the returned func stops it.
func (run *pgbRun) startProgress() (stop func()) {
	if run.o.Progress <= 0 {
		return func() {}
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(run.o.Progress)
		defer t.Stop()
		var last pgbench.Snapshot
		for {
			select {
			case <-quit:
				return
			case <-t.C:
			}
			if run.startedAt().IsZero() {
				continue // still connecting
			}
			now := run.snapshot()
			if last.At.IsZero() {
				last.At = run.startedAt()
			}
			pgbench.ProgressLine(run.stderr, pgbench.ProgressBetween(run.o, run.startedAt(), last, now))
			last = now
		}
	}()
	return func() { close(quit); <-done }
}

// snapshot adds up the clients' counts now.
func (run *pgbRun) snapshot() pgbench.Snapshot {
	s := pgbench.Snapshot{At: time.Now()}
	for _, c := range run.clients {
		cs := c.snapshot()
		addCounts(&s.Counts, cs.Counts)
		s.Latency.Merge(cs.Latency)
		s.Lag.Merge(cs.Lag)
	}
	return s
}
