package htmlreport

import (
	"fmt"
	"path/filepath"
	"slices"

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
// one distribution per scale, so one value).
func dsbenchMetrics(r *Run) []cmpMetric {
	var rates, medians, p99s, responses []cmpMetric
	for _, s := range sortedScales(r.DSBench) {
		rate := cmpMetric{key: cmpKey("rate|%d", s.Scale), label: fmt.Sprintf("rate at scale %d", s.Scale), short: fmt.Sprintf("tps %d", s.Scale),
			unit: "tps", better: stats.BiggerIsBetter, samples: s.Cycles}
		if len(s.Cycles) == 0 {
			rate.missing = "no cycle"
		}
		rates = append(rates, rate)
		cycles := r.cycleQuantiles(s.HistogramFile, 50, 99)
		for i, q := range []struct {
			pct  float64
			name string
			into *[]cmpMetric
		}{{50, "median", &medians}, {99, "p99", &p99s}} {
			m := cmpMetric{key: cmpKey("residence%g|%d", q.pct, s.Scale), label: fmt.Sprintf("%s residence time at scale %d", q.name, s.Scale),
				short: fmt.Sprintf("%s %d", q.name, s.Scale), unit: "ms", better: stats.SmallerIsBetter}
			switch {
			case len(cycles[i]) > 0:
				m.samples = cycles[i]
			case len(s.Residence) > 0:
				m.samples = []float64{residenceQuantile(s, q.pct/100)}
			default:
				m.missing = "not recorded"
			}
			*q.into = append(*q.into, m)
		}
		if len(s.Response) > 0 {
			responses = append(responses, cmpMetric{key: cmpKey("response99|%d", s.Scale), label: fmt.Sprintf("p99 response time at scale %d", s.Scale),
				short: fmt.Sprintf("resp p99 %d", s.Scale), unit: "ms", better: stats.SmallerIsBetter,
				// the response points have the residence points' form
				samples: []float64{residenceQuantile(results.ScaleResult{Residence: s.Response}, 0.99)}})
		}
	}
	return slices.Concat(rates, medians, p99s, responses)
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
