package experiment

import (
	"context"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbgauge/dbgauge/internal/results"
)

// latencies times one operation in a loop into an HDR histogram in
// nanoseconds (3 significant digits, 1 ns to 10 minutes): constant memory
// however many operations a long --duration takes. The same times also go
// into one histogram per tenth of the duration, the intervals of the
// test's HdrHistogram log: how the latency moved during the test, and
// repeated samples for benchstat.
type latencies struct {
	h          *hdr.Histogram
	ops        int64
	start, end time.Time
	// cur is the interval being filled since curStart; intervals are the
	// finished ones, each stamped with its start and end.
	interval  time.Duration
	cur       *hdr.Histogram
	curStart  time.Time
	intervals []*hdr.Histogram
}

const (
	maxLatencyNS = int64(10 * time.Minute)
	// logIntervals is how many intervals a test's log has (at most
	// logIntervals+1: the last operation may end past the duration);
	// minLogInterval keeps an interval longer than the log's millisecond
	// timestamps resolve.
	logIntervals   = 10
	minLogInterval = 10 * time.Millisecond
)

func newLatencyHistogram() *hdr.Histogram { return hdr.New(1, maxLatencyNS, 3) }

func newLatencies() *latencies { return &latencies{h: newLatencyHistogram()} }

// loop runs op until d has passed (at least once), stopping early when ctx
// is cancelled or op fails. When it ends, the interval histograms go where
// ctx says (withIntervalLog).
func (l *latencies) loop(ctx context.Context, d time.Duration, op func() error) error {
	l.start = time.Now()
	l.interval = max(d/logIntervals, minLogInterval)
	l.cur, l.curStart = newLatencyHistogram(), l.start
	defer l.handOver(ctx)
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
		ns := min(max(l.end.Sub(t0).Nanoseconds(), 1), maxLatencyNS)
		l.h.RecordValue(ns)
		l.cur.RecordValue(ns)
		l.ops++
		if !l.end.Before(deadline) {
			return nil
		}
		if l.end.Sub(l.curStart) >= l.interval {
			// Between two timed operations: the new histogram's
			// allocation is not inside anyone's time.
			l.closeInterval()
			l.cur, l.curStart = newLatencyHistogram(), l.end
		}
	}
}

// closeInterval stamps the current interval and files it, if it holds any
// operation.
func (l *latencies) closeInterval() {
	if l.cur == nil || l.cur.TotalCount() == 0 {
		return
	}
	l.cur.SetStartTimeMs(l.curStart.UnixMilli())
	l.cur.SetEndTimeMs(l.end.UnixMilli())
	l.intervals = append(l.intervals, l.cur)
	l.cur = nil
}

// intervalLogKey is the context key of withIntervalLog.
type intervalLogKey struct{}

// withIntervalLog returns a context under which a latency loop, when it
// ends, hands its interval histograms to *dst. Storage writes them as the
// test's HdrHistogram log; the tests themselves (randomReads, syncWrites)
// return only their summary.
func withIntervalLog(ctx context.Context, dst *[]*hdr.Histogram) context.Context {
	return context.WithValue(ctx, intervalLogKey{}, dst)
}

func (l *latencies) handOver(ctx context.Context) {
	l.closeInterval()
	if dst, ok := ctx.Value(intervalLogKey{}).(*[]*hdr.Histogram); ok {
		*dst = l.intervals
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
