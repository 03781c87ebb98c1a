package htmlreport

import (
	"fmt"
	"sort"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// minScanR2 is the R² below which the scans' straight line is called a
// poor fit: seed 004 found scans linear (from 5,000 tuples up), and a line
// that leaves more than a tenth of the variance unexplained makes its
// slope, and any prediction from it, a weak number.
const minScanR2 = 0.9

// accessLabel names an access method as a reader says it.
func accessLabel(a string) string {
	switch a {
	case results.AccessNone:
		return "no index"
	case results.AccessNonClustered:
		return "non-clustered"
	}
	return a
}

// sweepSeries is one access method's measured points in ascending size.
func sweepSeries(s *results.SizeSweepResults, access string) []results.SizeSweepPoint {
	var pts []results.SizeSweepPoint
	for _, p := range s.Points {
		if p.Access == access && p.Summary.N > 0 {
			pts = append(pts, p)
		}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].Size < pts[j].Size })
	return pts
}

// sweepFit is time against size for one access method: the scans' line as
// results.json holds it, and for an indexed method the same least-squares
// line over its sizes (whose slope says how flat it is).
func sweepFit(s *results.SizeSweepResults, access string) (stats.LineFit, bool) {
	if access == results.AccessNone {
		if s.Analysis != nil && s.Analysis.NoIndexFit != nil {
			return *s.Analysis.NoIndexFit, true
		}
		return stats.LineFit{}, false
	}
	var xs, ys []float64
	for _, p := range sweepSeries(s, access) {
		xs, ys = append(xs, float64(p.Size)), append(ys, p.BasisMS(s.Basis))
	}
	f, err := stats.FitLine(xs, ys)
	return f, err == nil
}

// sizesweepSummary: per access method the slope (ms per 1000 tuples) and
// R², the indexed methods' flatness, per method the scale model's error,
// and seed 004 Table 10's non-clustered/clustered ratio.
func sizesweepSummary(s *results.SizeSweepResults) []Headline {
	var hs []Headline
	for _, a := range s.Access {
		if f, ok := sweepFit(s, a); ok {
			hs = append(hs, Headline{Label: accessLabel(a) + ": slope", Value: num(f.Slope*1000) + " ms / 1000 tuples",
				Note: fmt.Sprintf("R² %.3f over %d sizes (%s times)", f.R2, f.N, s.Basis)})
		}
	}
	a := s.Analysis
	if a == nil {
		return hs
	}
	for _, f := range a.Flatness {
		hs = append(hs, Headline{Label: accessLabel(f.Access) + ": slowest / fastest size", Value: num(f.Ratio),
			Note: fmt.Sprintf("%s at %.0f tuples, %s at %.0f", msText(f.SlowestMS), f.SlowestSize, msText(f.FastestMS), f.FastestSize)})
	}
	for _, p := range a.Predictions {
		hs = append(hs, Headline{Label: accessLabel(p.Access) + ": scale-model error", Value: fmt.Sprintf("%+.1f%%", p.ErrorPct),
			Note: fmt.Sprintf("%.0f tuples: %s predicted from %d smaller sizes, %s measured", p.Size, msText(p.PredictedMS), p.Fit.N, msText(p.MeasuredMS))})
	}
	if rt := a.NonClusteredOverClustered; rt != nil {
		hs = append(hs, Headline{Label: "non-clustered / clustered", Value: num(rt.RatioOfMeans),
			Note: fmt.Sprintf("over %d sizes (seed 004 Table 10: about 1.1)", len(rt.Sizes))})
	}
	return hs
}

// sizesweepWarnings: an incomplete run, the run's own warnings, sizes and
// methods not measured or short of repetitions, and a scan line that
// explains too little of the variance.
func sizesweepWarnings(s *results.SizeSweepResults) []string {
	w := runStateWarnings(s.Complete, s.Error, s.Warnings)
	var missing, short []string
	for _, n := range s.Sizes {
		for _, a := range s.Access {
			var p *results.SizeSweepPoint
			for i := range s.Points {
				if s.Points[i].Size == n && s.Points[i].Access == a {
					p = &s.Points[i]
				}
			}
			switch {
			case p == nil || p.Summary.N == 0:
				missing = append(missing, fmt.Sprintf("%s at %d tuples", accessLabel(a), n))
			case p.Summary.N < s.Reps:
				short = append(short, fmt.Sprintf("%s at %d tuples (%d of %d)", accessLabel(a), n, p.Summary.N, s.Reps))
			}
		}
	}
	if len(missing) > 0 {
		w = append(w, "Not measured: "+listText(missing, 6)+".")
	}
	if len(short) > 0 {
		w = append(w, "Fewer timed retrieves than asked: "+listText(short, 6)+".")
	}
	if a := s.Analysis; a != nil && a.NoIndexFit != nil && a.NoIndexFit.R2 < minScanR2 {
		w = append(w, fmt.Sprintf("No index: the linear fit explains only %s of the variance (R² %.3f): the scan times do not follow a straight line over these sizes, so read its slope and the scale model's prediction with care.",
			pctText(a.NoIndexFit.R2), a.NoIndexFit.R2))
	}
	return w
}
