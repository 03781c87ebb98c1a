package htmlreport

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// The headline metric of the other experiments, each from its stored
// repetitions: multiuser thruput per user count, sizesweep time per size
// and access method, speedup time per p (memory, page size), qac computed
// time per cardinality, abtest time per query and variant, storage rates
// and latencies (one value each: the test ran once).

// multiuserMetrics: per user count n > 0, the thruput n / T(n) in user
// scripts per second, one value per repetition (the wall time T(n) less
// the harness's overhead when the run subtracted it). The seed's relative
// thruput n x T(1)/T(n) compares a system with itself; between runs the
// absolute rate is what differs.
func multiuserMetrics(r *Run) []Metric {
	m := r.multiuser()
	chart := &LineChart{Name: "compare_multiuser", Title: "thruput against users (median; bars: slowest..fastest repetition)",
		XLabel: "users", YLabel: "thruput [user scripts / s]",
		Reading: "Thruput against the number of users started together, one curve per run: a curve above another served the same users faster."}
	times := map[int][]float64{}
	var order []int
	for _, run := range m.Runs {
		if _, ok := times[run.Users]; !ok {
			order = append(order, run.Users)
		}
		times[run.Users] = append(times[run.Users], run.WallMS)
	}
	var out []Metric
	for _, n := range order {
		if n <= 0 {
			continue // the harness alone: no thruput
		}
		ts := times[n]
		if m.SubtractOverhead && m.OverheadMS != nil {
			ts = stats.SubtractOverhead(ts, *m.OverheadMS)
		}
		x := Metric{Key: cmpKey("users|%d", n), Label: "thruput at " + countNoun(n, "user", "users"), Short: countNoun(n, "user", "users"),
			Unit: "scripts/s", Better: stats.BiggerIsBetter, Line: &LinePlace{Chart: chart, X: float64(n)}}
		for _, t := range ts {
			if t > 0 {
				x.Samples = append(x.Samples, float64(n)/(t/1000))
			}
		}
		if len(x.Samples) == 0 {
			x.Missing = "no time"
		}
		out = append(out, x)
	}
	return out
}

// sizesweepMetrics: per access method and size, the retrieve's time.
func sizesweepMetrics(r *Run) []Metric {
	s := r.sizesweep()
	chart := &LineChart{Name: "compare_sizesweep", Title: "time against relation size per access method (median; bars: fastest..slowest repetition)",
		XLabel: "relation size [tuples]", YLabel: "time [ms]",
		Reading: "The retrieve's time against the relation's size, one curve per run and access method: a flat curve is an index doing its job, a rising one a scan."}
	var out []Metric
	// by access method, then size: one method's curve reads as a run of rows
	points := slices.Clone(s.Points)
	slices.SortStableFunc(points, func(a, b results.SizeSweepPoint) int {
		return cmp.Or(cmp.Compare(slices.Index(s.Access, a.Access), slices.Index(s.Access, b.Access)), cmp.Compare(a.Size, b.Size))
	})
	for _, p := range points {
		x := Metric{Key: cmpKey("sweep|%s|%d", p.Access, p.Size), Label: fmt.Sprintf("%s, N=%d", accessLabel(p.Access), p.Size),
			Short: fmt.Sprintf("%s %d", accessLabel(p.Access), p.Size), Unit: "ms", Better: stats.SmallerIsBetter,
			Samples: p.TimesMS, Line: &LinePlace{Chart: chart, Curve: accessLabel(p.Access), X: float64(p.Size)}}
		if len(p.TimesMS) == 0 {
			x.Missing = "not measured"
		}
		out = append(out, x)
	}
	return out
}

// speedupMetrics: per part (parallelism, memory, page size), query and
// value of the part's variable, the query's time.
func speedupMetrics(r *Run) []Metric {
	var out []Metric
	for _, part := range []*results.SpeedupPart{r.speedup().Speedup, r.speedup().Memory, r.speedup().PageSize} {
		if part == nil || !part.Applicable {
			continue
		}
		chart := &LineChart{Name: "compare_" + part.Variable, Title: "time against " + cmpSpeedupAxis(part.Variable) + " (median; bars: fastest..slowest repetition)",
			XLabel: cmpSpeedupAxis(part.Variable), YLabel: "time [ms]",
			Reading: "Each query's time against " + cmpSpeedupAxis(part.Variable) + ", one curve per run and query: a lower curve is faster at that setting."}
		for _, c := range part.Curves {
			for _, p := range c.Points {
				val := cmpSpeedupValue(part.Variable, p.X)
				x := Metric{Key: cmpKey("%s|%d|%s|%s|%s|%d", part.Variable, c.Query, c.Class, c.Org, c.Attribute, p.X),
					Label: curveLabel(c) + ", " + c.Attribute + ", " + val, Short: fmt.Sprintf("Q%d %s", c.Query, val),
					Unit: "ms", Better: stats.SmallerIsBetter, Line: &LinePlace{Chart: chart, Curve: curveLabel(c), X: float64(p.X)}}
				if p.Error == "" && len(p.TimesMS) > 0 {
					x.Samples = p.TimesMS
				} else {
					x.Missing = "ERROR"
				}
				out = append(out, x)
			}
		}
	}
	return out
}

func cmpSpeedupAxis(variable string) string {
	switch variable {
	case "memory":
		return "join memory [bytes]"
	case "page_size":
		return "page size [bytes]"
	}
	return "parallelism p"
}

func cmpSpeedupValue(variable string, x int64) string {
	switch variable {
	case "memory":
		return "memory " + bytesLabel(x)
	case "page_size":
		return "page " + bytesLabel(x)
	}
	return fmt.Sprintf("p=%d", x)
}

// qacMetrics: per cardinality, the protocol's computed time over the QEs
// it kept (the tick-based time, or the fine one when the run measured
// with it); a Q@C the protocol did not retain has none.
func qacMetrics(r *Run) []Metric {
	q := r.qac()
	chart := &LineChart{Name: "compare_qac", Title: "computed time against cardinality (median; bars: fastest..slowest kept QE)",
		XLabel: "cardinality [tuples]", YLabel: "computed time [ms]",
		Reading: "The query's computed time (the query process's own CPU and I/O) against the cardinality, one curve per run."}
	var out []Metric
	for _, c := range q.QaCs {
		x := Metric{Key: cmpKey("qac|%d", c.Cardinality), Label: fmt.Sprintf("computed time at cardinality %d", c.Cardinality),
			Short: fmt.Sprint(c.Cardinality), Unit: "ms", Better: stats.SmallerIsBetter,
			Line: &LinePlace{Chart: chart, X: float64(c.Cardinality)}}
		if !c.Retained {
			// the protocol found this Q@C's times untrustworthy: so does
			// the comparison
			x.Missing = "dropped by the protocol"
			out = append(out, x)
			continue
		}
		for _, qe := range c.QEs {
			if qe.Dropped || qe.Error != "" {
				continue
			}
			v := qe.ComputedMS
			if q.Measure == "fine" {
				v = qe.FineMS
			}
			x.Samples = append(x.Samples, v)
		}
		if len(x.Samples) == 0 {
			x.Missing = "dropped"
		}
		out = append(out, x)
	}
	return out
}

// abtestMetrics: per query and cache mode, variant A's and variant B's
// times (the pairs' order is the run's own business: between runs they
// are two unpaired samples each).
func abtestMetrics(r *Run) []Metric {
	var out []Metric
	for _, q := range r.abtest().Queries {
		for _, c := range q.Runs {
			for _, v := range []struct {
				name  string
				times []float64
			}{{"A", c.AMS}, {"B", c.BMS}} {
				x := Metric{Key: cmpKey("ab|%s|%s|%s", q.Label, c.Cache, v.name), Label: fmt.Sprintf("%s %s, variant %s", q.Label, c.Cache, v.name),
					Unit: "ms", Better: stats.SmallerIsBetter, Samples: v.times}
				if c.Status != results.StatusOK || len(v.times) == 0 {
					x.Samples, x.Missing = nil, c.Status
				}
				out = append(out, x)
			}
		}
	}
	return out
}

// storageMetrics: the sequential rates, and per block size the random
// reads' and synchronous writes' rates and 99th percentiles; each test ran
// once, so one value each.
func storageMetrics(r *Run) []Metric {
	s := r.storage()
	var out []Metric
	add := func(key, label, unit string, better stats.Better, v float64) {
		x := Metric{Key: key, Label: label, Unit: unit, Better: better}
		if v > 0 {
			x.Samples = []float64{v}
		} else {
			x.Missing = "not measured"
		}
		out = append(out, x)
	}
	if s.SeqWrite != nil {
		add("seqwrite", "sequential write", "MB/s", stats.BiggerIsBetter, s.SeqWrite.MBps)
	}
	if s.SeqRead != nil {
		add("seqread", "sequential read", "MB/s", stats.BiggerIsBetter, s.SeqRead.MBps)
	}
	for _, group := range []struct {
		name  string
		tests []results.LatencyTest
	}{{"random reads", s.RandomReads}, {"synchronous writes", s.SyncWrites}} {
		for _, t := range group.tests {
			b := bytesLabel(t.BlockBytes)
			add(cmpKey("%s|%d|rate", group.name, t.BlockBytes), group.name+" of "+b, "ops/s", stats.BiggerIsBetter, t.PerSecond)
			add(cmpKey("%s|%d|p99", group.name, t.BlockBytes), group.name+" of "+b+", p99", "µs", stats.SmallerIsBetter, t.P99US)
		}
	}
	return out
}
