package htmlreport

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// What dbgauge compare takes from a abtest run.

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
