package pgbench

import (
	"math"
	"time"
)

// Moments accumulate a series of times as pgbench does for its averages:
// how many, their sum and sum of squares, and the largest, in
// microseconds. The zero value is empty; Add is not safe for concurrent
// use (one per client or thread, merged with Merge).
type Moments struct {
	N         int64
	Sum, Sum2 float64
	Max       float64
}

// Add records one time.
func (m *Moments) Add(d time.Duration) {
	us := float64(d) / float64(time.Microsecond)
	m.N++
	m.Sum += us
	m.Sum2 += us * us
	m.Max = max(m.Max, us)
}

// Merge adds another series.
func (m *Moments) Merge(o Moments) {
	m.N += o.N
	m.Sum += o.Sum
	m.Sum2 += o.Sum2
	m.Max = max(m.Max, o.Max)
}

// Totals are what a run measured, as pgbench accumulates it, for Compute.
type Totals struct {
	Counts
	// Latency is over the processed transactions; Lag their schedule lag
	// under -R.
	Latency, Lag Moments
	LatencyLate  int64
	// Duration is the benchmarking time (from the first client's start to
	// the end).
	Duration time.Duration
	// ConnTotal is the time every connection took (with -C); ConnInitial
	// the time from the start to benchmarking (the initial connections).
	ConnTotal, ConnInitial time.Duration
	// Scripts are per script, in the order of Figures.Scripts.
	Scripts []ScriptTotals
}

// ScriptTotals are one script's measures.
type ScriptTotals struct {
	Counts
	Latency Moments
	// Commands are per command, in script order.
	Commands []CommandTotals
}

// CommandTotals are one command's measures (-r).
type CommandTotals struct {
	Latency           Moments
	Failures, Retries int64
}

// Compute fills f's measured figures from t by pgbench's formulas: tps
// over the benchmarking time; the latency's average and standard
// deviation when every transaction was timed (-R, -P, -L), else the
// time per transaction of each client; the lag; the initial or, with -C,
// the average connection time; the same per script and per command.
func (f *Figures) Compute(t *Totals) {
	secs := t.Duration.Seconds()
	f.Total, f.LatencyLate = t.Counts, t.LatencyLate
	f.TPS = ratio(float64(t.Processed), secs)
	if f.measured() {
		f.LatencyAverage, f.LatencyStddev = LatencyFigures(t.Latency.N, t.Latency.Sum, t.Latency.Sum2)
	} else {
		us := float64(t.Duration) / float64(time.Microsecond)
		f.LatencyAverage, f.LatencyStddev = 0.001*ratio(us*float64(f.Clients), float64(t.all())), 0
	}
	f.LagAverage, f.LagMax = 0.001*ratio(t.Lag.Sum, float64(t.Processed)), 0.001*t.Lag.Max
	if f.Connect {
		us := float64(t.ConnTotal) / float64(time.Microsecond)
		f.ConnectionTime = 0.001 * ratio(us, float64(t.Processed+t.Failures()))
	} else {
		f.ConnectionTime = 0.001 * float64(t.ConnInitial) / float64(time.Microsecond)
	}
	for i := range f.Scripts {
		if i >= len(t.Scripts) {
			break
		}
		s, st := &f.Scripts[i], &t.Scripts[i]
		s.Counts = st.Counts
		s.TPS = ratio(float64(st.Processed), secs)
		s.LatencyAverage, s.LatencyStddev = LatencyFigures(st.Latency.N, st.Latency.Sum, st.Latency.Sum2)
		for j := range s.Commands {
			if j >= len(st.Commands) {
				break
			}
			c := st.Commands[j]
			s.Commands[j].Failures, s.Commands[j].Retries = c.Failures, c.Retries
			s.Commands[j].LatencyAverage = 0
			if c.Latency.N > 0 {
				s.Commands[j].LatencyAverage = 0.001 * c.Latency.Sum / float64(c.Latency.N)
			}
		}
	}
}

// Snapshot is the run's totals at one moment, for a -P line.
type Snapshot struct {
	At time.Time
	Counts
	Latency, Lag Moments
}

// ProgressBetween computes one -P line's figures from the totals at the
// previous report (or the start) and now, as pgbench does: the rate and
// the latency over the transactions of the interval only. start is when
// the run started; o gives the options that change the line.
func ProgressBetween(o *Options, start time.Time, last, now Snapshot) ProgressFigures {
	g := ProgressFigures{
		Elapsed: now.At.Sub(start), Timestamp: o.ProgressTimestamp, Now: now.At,
		Failed:  now.Failures() - last.Failures(),
		Skipped: now.Skipped - last.Skipped,
		Retried: now.Retried - last.Retried, Retries: now.Retries - last.Retries,
		Rate: o.Rate > 0, LatencyLimit: o.LatencyLimit > 0, MaxTries: o.MaxTries,
	}
	n := now.Processed - last.Processed
	g.TPS = ratio(float64(n), now.At.Sub(last.At).Seconds())
	if n > 0 {
		lat := 0.001 * (now.Latency.Sum - last.Latency.Sum) / float64(n)
		sq := (now.Latency.Sum2 - last.Latency.Sum2) / float64(n)
		g.LatencyAverage = lat
		g.LatencyStddev = 0.001 * math.Sqrt(sq-1e6*lat*lat)
		g.Lag = 0.001 * (now.Lag.Sum - last.Lag.Sum) / float64(n)
	}
	return g
}
