package experiment

import (
	"fmt"
	"math"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// analyze summarises every point and computes seed 004 Test 2's figures
// from the plan's basis, by default the mean (the seed's "average time"): the scans' straight
// line, the indexed methods' flatness, the non-clustered/clustered ratio
// and the scale-model prediction of the largest size. What cannot be
// computed (too few sizes, a failed run) is a note, not an error.
func (r *sizeSweepRun) analyze() {
	for i := range r.res.Points {
		p := &r.res.Points[i]
		p.Summary = stats.Summarize(p.TimesMS)
		if len(p.EngineMS) > 0 && len(p.EngineMS) == len(p.TimesMS) {
			s := stats.Summarize(p.EngineMS)
			p.EngineSummary = &s
		}
	}
	a := &results.SizeSweepAnalysis{}
	note := func(format string, args ...any) { a.Notes = append(a.Notes, fmt.Sprintf(format, args...)) }
	for _, acc := range r.plan.Access {
		sizes, xs, ys := sweepSeries(r.res.Points, acc, r.res.Basis)
		if len(sizes) == 0 {
			continue
		}
		if acc == results.AccessNone {
			if f, err := stats.FitLine(xs, ys); err != nil {
				note("no-index fit: %v", err)
			} else {
				a.NoIndexFit = &f
			}
		} else if f, err := stats.Flat(xs, ys); err != nil {
			note("%s flatness: %v", acc, err)
		} else {
			a.Flatness = append(a.Flatness, results.AccessFlatness{Access: acc, Flatness: f})
		}
		if p, err := stats.PredictLargest(xs, ys); err != nil {
			note("%s prediction: %v", acc, err)
		} else {
			a.Predictions = append(a.Predictions, results.AccessPrediction{Access: acc, Prediction: p})
		}
	}
	if rt := sweepRatios(r.res.Points, r.res.Basis); rt != nil {
		a.NonClusteredOverClustered = rt
	}
	a.Notes = append(a.Notes, sweepPlanChanges(r.res.Points, r.plan.Access)...)
	r.res.Analysis = a
}

// sweepPlanChanges says where a method's plan changes shape from one size
// to the next (PostgreSQL scans a 100-tuple table whatever its index, and
// goes parallel for large scans): a line fitted across such a change mixes
// two access paths, which the prediction's error may show.
func sweepPlanChanges(pts []results.SizeSweepPoint, access []string) []string {
	var notes []string
	for _, acc := range access {
		prev := ""
		for _, p := range pts {
			if p.Access != acc || p.Plan == "" {
				continue
			}
			shape := planShape(p.Plan, p.Table)
			if prev != "" && shape != prev {
				first, _, _ := strings.Cut(strings.TrimSpace(p.Plan), "\n")
				notes = append(notes, fmt.Sprintf("%s: the plan changes at size %d to %q", acc, p.Size, strings.TrimSpace(first)))
			}
			prev = shape
		}
	}
	return notes
}

// sweepSeries is one access method's measured sizes with their times on
// basis, in ascending size order.
func sweepSeries(pts []results.SizeSweepPoint, access, basis string) (sizes []int64, xs, ys []float64) {
	for _, p := range pts {
		if p.Access == access && p.Summary.N > 0 {
			sizes = append(sizes, p.Size)
			xs = append(xs, float64(p.Size))
			ys = append(ys, p.BasisMS(basis))
		}
	}
	return sizes, xs, ys
}

// sweepRatios is seed 004 Table 10 over the sizes both index methods
// measured; nil when there is none.
func sweepRatios(pts []results.SizeSweepPoint, basis string) *results.SizeSweepRatios {
	_, cx, cy := sweepSeries(pts, results.AccessClustered, basis)
	nsizes, nx, ny := sweepSeries(pts, results.AccessNonClustered, basis)
	clu := map[float64]float64{}
	for i := range cx {
		clu[cx[i]] = cy[i]
	}
	var sizes []int64
	var num, den []float64
	for i := range nx {
		if c, ok := clu[nx[i]]; ok && c > 0 && !math.IsNaN(ny[i]) {
			sizes, num, den = append(sizes, nsizes[i]), append(num, ny[i]), append(den, c)
		}
	}
	if len(sizes) == 0 {
		return nil
	}
	rt, err := stats.TimeRatios(num, den)
	if err != nil {
		return nil
	}
	return &results.SizeSweepRatios{Sizes: sizes, Ratios: rt}
}

// write stores results.json, the tables and the diagrams (writeOutputs).
func (r *sizeSweepRun) write() error {
	return writeOutputs(r.run, r.res)
}
