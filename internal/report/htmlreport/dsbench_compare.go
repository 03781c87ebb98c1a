package htmlreport

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// dsbenchMetrics are, per scale, the rate (the cycle rates T_i are its
// repetitions) and the median and 99th percentile residence time, grouped
// by kind (every scale's rate, then every scale's median ...). The
// latencies' repetitions are the cycles' own quantiles, read from the
// scale's HdrHistogram log (one interval per cycle); without the log there
// is only the scale's distribution in results.json, one value each. An
// open-loop run adds its response time from the intended start (stored as
// one distribution per scale, so one value); a workload of several
// transaction types adds each type's rate and p99 (dsbenchTypeMetrics).
func dsbenchMetrics(r *Run) []Metric {
	var rates, medians, p99s, responses, typeRates, typeP99s []Metric
	for _, s := range sortedScales(r.dsbench()) {
		tr, tp := dsbenchTypeMetrics(s, r.dsbench().DurationS)
		typeRates, typeP99s = append(typeRates, tr...), append(typeP99s, tp...)
		rate := Metric{Key: cmpKey("rate|%d", s.Scale), Label: fmt.Sprintf("rate at scale %d", s.Scale), Short: fmt.Sprintf("tps %d", s.Scale),
			Unit: "tps", Better: stats.BiggerIsBetter, Samples: s.Cycles}
		if len(s.Cycles) == 0 {
			rate.Missing = "no cycle"
		}
		rates = append(rates, rate)
		cycles := r.cycleQuantiles(s.HistogramFile, 50, 99)
		for i, q := range []struct {
			pct  float64
			name string
			into *[]Metric
		}{{50, "median", &medians}, {99, "p99", &p99s}} {
			m := Metric{Key: cmpKey("residence%g|%d", q.pct, s.Scale), Label: fmt.Sprintf("%s residence time at scale %d", q.name, s.Scale),
				Short: fmt.Sprintf("%s %d", q.name, s.Scale), Unit: "ms", Better: stats.SmallerIsBetter}
			switch {
			case len(cycles[i]) > 0:
				m.Samples = cycles[i]
			case len(s.Residence) > 0:
				m.Samples = []float64{residenceQuantile(s, q.pct/100)}
			default:
				m.Missing = "not recorded"
			}
			*q.into = append(*q.into, m)
		}
		if len(s.Response) > 0 {
			responses = append(responses, Metric{Key: cmpKey("response99|%d", s.Scale), Label: fmt.Sprintf("p99 response time at scale %d", s.Scale),
				Short: fmt.Sprintf("resp p99 %d", s.Scale), Unit: "ms", Better: stats.SmallerIsBetter,
				// the response points have the residence points' form
				Samples: []float64{residenceQuantile(results.ScaleResult{Residence: s.Response}, 0.99)}})
		}
	}
	return slices.Concat(rates, medians, p99s, responses, typeRates, typeP99s)
}

// cycleQuantiles reads the HdrHistogram log name of the run directory and
// returns, for each percentile pcts[j], its value in ms in every interval
// (one interval per cycle). Nil slices when the log is missing or cannot
// be read: the caller falls back to the stored distribution, as a damaged
// log is better left unused than read in part.
func (r *Run) cycleQuantiles(name string, pcts ...float64) [][]float64 {
	out := make([][]float64, len(pcts))
	if name == "" {
		return out
	}
	hs, err := results.ReadHistogramLog(filepath.Join(r.Dir, name))
	if err != nil {
		return out
	}
	for _, h := range hs {
		if h.TotalCount() == 0 {
			continue
		}
		for j, p := range pcts {
			out[j] = append(out[j], float64(h.ValueAtQuantile(p))/1000) // µs -> ms
		}
	}
	return out
}

// dsbenchDiagrams are the stress sweeps' overlaid rate against scale and
// latency distributions.
func dsbenchDiagrams(c *comparison, add addDiagram) {
	legend := c.names()
	runs := make([]*results.DSBenchResults, len(c.runs))
	for i, r := range c.runs {
		runs[i] = r.dsbench()
	}
	charts, err := report.CompareRateChart(legend, runs)
	add(charts, err, "compare_rate", "Rate against scale",
		"The median of the cycle rates at each scale, one curve per run, the bars from the slowest to the fastest cycle. "+c.rowsReading("rate|", 4))
	charts, err = report.CompareLatencyChart(legend, runs)
	add(charts, err, "compare_latency", "Latency distributions",
		"Residence time (response time in an open loop) against percentile, log axes, one panel per scale: a lower curve is faster at that percentile. "+
			c.rowsReading("residence99|", 4))
}

// cmpDSBenchMismatch warns when stress sweeps ran different transactions or
// clients: their rates are then not the same measurement.
func cmpDSBenchMismatch(c *comparison) []string {
	base := c.runs[0].dsbench()
	var out []string
	for i, r := range c.runs[1:] {
		o := r.dsbench()
		var diffs []string
		for _, f := range []struct {
			name string
			a, b any
		}{
			{"workload", base.Mode, o.Mode}, {"form", base.Form, o.Form}, {"threads", base.Threads, o.Threads},
			{"connections", base.Connections, o.Connections}, {"nodes", base.Nodes, o.Nodes},
			{"isolation", base.Isolation, o.Isolation}, {"target rate", base.RateTPS, o.RateTPS},
		} {
			if f.a != f.b {
				diffs = append(diffs, fmt.Sprintf("%s %v against %v", f.name, f.b, f.a))
			}
		}
		if len(diffs) > 0 {
			out = append(out, fmt.Sprintf("%s ran a different load from the baseline (%s): its rates measure different work, not only a different system.",
				c.name(i+1), strings.Join(diffs, ", ")))
		}
	}
	return out
}
