package experiment

import (
	"context"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbgauge/dbgauge/internal/results"
)

// latencies times one operation in a loop into an HDR histogram in
// nanoseconds (3 significant digits, 1 ns to 10 minutes): constant memory
// however many operations a long --duration takes.
type latencies struct {
	h          *hdr.Histogram
	ops        int64
	start, end time.Time
}

const maxLatencyNS = int64(10 * time.Minute)

func newLatencies() *latencies { return &latencies{h: hdr.New(1, maxLatencyNS, 3)} }

// loop runs op until d has passed (at least once), stopping early when ctx
// is cancelled or op fails.
func (l *latencies) loop(ctx context.Context, d time.Duration, op func() error) error {
	l.start = time.Now()
	deadline := l.start.Add(d)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		t0 := time.Now()
		if err := op(); err != nil {
			return err
		}
		l.end = time.Now()
		l.h.RecordValue(min(max(l.end.Sub(t0).Nanoseconds(), 1), maxLatencyNS))
		l.ops++
		if !l.end.Before(deadline) {
			return nil
		}
	}
}

func (l *latencies) result(bs int64) *results.LatencyTest {
	secs := l.end.Sub(l.start).Seconds()
	us := func(ns int64) float64 { return float64(ns) / 1e3 }
	return &results.LatencyTest{
		BlockBytes: bs, Ops: l.ops, Seconds: secs, PerSecond: float64(l.ops) / secs,
		MeanUS: l.h.Mean() / 1e3, P50US: us(l.h.ValueAtQuantile(50)), P99US: us(l.h.ValueAtQuantile(99)), MaxUS: us(l.h.Max()),
	}
}
