package htmlreport

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// What dbgauge compare takes from a sizesweep run.

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
