package htmlreport

import (
	"fmt"
	"math"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
)

// sizesweepReading is the diagram's one line: how much longer the scans
// took at the largest size than at the smallest against how much larger
// it is, how well the straight line fits and how far the scale model
// missed; then the band each indexed method stays in.
func sizesweepReading(s *results.SizeSweepResults) string {
	var out []string
	if pts := sweepSeries(s, results.AccessNone); len(pts) >= 2 {
		lo, hi := pts[0], pts[len(pts)-1]
		tLo, tHi := lo.BasisMS(s.Basis), hi.BasisMS(s.Basis)
		line := fmt.Sprintf("Scans (no index) take %s at %d tuples and %s at %d", msText(tLo), lo.Size, msText(tHi), hi.Size)
		if tLo > 0 {
			line += fmt.Sprintf(" (%s times as long for %s times the tuples)", num(tHi/tLo), num(float64(hi.Size)/float64(lo.Size)))
		}
		var fit []string
		if a := s.Analysis; a != nil && a.NoIndexFit != nil {
			fit = append(fit, fmt.Sprintf("a straight line explains %.1f%% of their variance", 100*a.NoIndexFit.R2))
		}
		for _, p := range predictions(s) {
			if p.Access == results.AccessNone {
				subject := "a line"
				if len(fit) > 0 {
					subject = "one"
				}
				fit = append(fit, fmt.Sprintf("%s fitted on the %d smaller sizes predicts %.0f tuples %s", subject, p.Fit.N, p.Size, missText(p.ErrorPct)))
			}
		}
		if len(fit) > 0 {
			line += "; " + strings.Join(fit, ", and ")
		}
		out = append(out, line+".")
	}
	var bands []string
	if s.Analysis != nil {
		for i, f := range s.Analysis.Flatness {
			verb := ""
			if i == 0 {
				verb = " access stays"
			}
			bands = append(bands, fmt.Sprintf("%s%s between %s and %s ms (%s times)",
				accessLabel(f.Access), verb, num(f.FastestMS), num(f.SlowestMS), num(f.Ratio)))
		}
	}
	if len(bands) > 0 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range s.Points {
			if p.Access != results.AccessNone && p.Summary.N > 0 {
				lo, hi = math.Min(lo, float64(p.Size)), math.Max(hi, float64(p.Size))
			}
		}
		out = append(out, fmt.Sprintf("From %.0f to %.0f tuples %s.", lo, hi, strings.Join(bands, ", ")))
	}
	return strings.Join(out, " ")
}

// missText says how far and which way a prediction missed ("24.8% low":
// it promised less time than the size took).
func missText(errPct float64) string {
	switch {
	case math.Abs(errPct) < 0.05:
		return "to within 0.1%"
	case errPct < 0:
		return fmt.Sprintf("%.1f%% low", -errPct)
	}
	return fmt.Sprintf("%.1f%% high", errPct)
}

func predictions(s *results.SizeSweepResults) []results.AccessPrediction {
	if s.Analysis == nil {
		return nil
	}
	return s.Analysis.Predictions
}
