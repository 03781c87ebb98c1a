package results

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/stats"
)

// The Wisconsin benchmark as stored results know it: its results type, its catalog
// headline and its lines in the Go benchmark format.
func init() {
	Register(Kind{
		Name:     "wisconsin",
		Title:    "Wisconsin benchmark",
		New:      func() Results { return &WisconsinResults{} },
		Headline: func(r Results) Headline { return wisconsinHeadline(r.(*WisconsinResults)) },
		Bench:    func(w *BenchWriter, r Results, dir string) { benchWisconsin(w, r.(*WisconsinResults)) },
		Units:    "query result",
	})
}

func wisconsinHeadline(r *WisconsinResults) Headline {
	var medians []float64
	for _, q := range r.Queries {
		if q.Status == StatusOK && q.ElapsedMS.Median > 0 {
			medians = append(medians, q.ElapsedMS.Median)
		}
	}
	if len(medians) == 0 {
		return Headline{Label: "query medians", Text: "none measured"}
	}
	return number(fmt.Sprintf("geomean of %d query medians", len(medians)), stats.GeometricMean(medians), "%.4g ms")
}

// Wisconsin: every timed execution of every query at every size,
// organisation and destination.
func benchWisconsin(w *BenchWriter, r *WisconsinResults) {
	for _, q := range r.Queries {
		if q.Status != StatusOK {
			continue
		}
		name := []string{"Wisconsin", fmt.Sprintf("Q%d", q.Query), "N=" + itoa(q.Size), "org=" + q.Organization, "dest=" + q.Destination}
		for _, ms := range q.SamplesMS {
			w.Line(name, 1, NS(ms, "ns/op"))
		}
	}
}
