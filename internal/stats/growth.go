package stats

import (
	"fmt"
	"math"
)

// Growth is how a time grows with size: the exponent b of t = a * N^b,
// fitted by least squares on log t against log N (seed 003 §5.1 scale-up).
type Growth struct {
	Exponent float64 `json:"exponent"`
	Expected string  `json:"expected"` // "linear" or "flat"
	Verdict  string  `json:"verdict"`  // "linear", "flat", "sublinear", "superlinear", "not flat"
	OK       bool    `json:"as_expected"`
}

// Tolerances of the verdicts: small sizes carry fixed per-query costs, so
// measured scans grow a little slower than N; a linear verdict allows it.
const (
	linearLow, linearHigh = 0.7, 1.3
	flatHigh              = 0.3
)

// FitGrowth fits the exponent over (size, time) points and judges it against
// the expected shape. It needs at least two distinct sizes with times > 0.
func FitGrowth(sizes, times []float64, expected string) (Growth, error) {
	var xs, ys []float64
	for i := range sizes {
		if sizes[i] > 0 && times[i] > 0 {
			xs = append(xs, math.Log(sizes[i]))
			ys = append(ys, math.Log(times[i]))
		}
	}
	if len(xs) < 2 {
		return Growth{}, fmt.Errorf("growth needs two sizes with positive times, have %d", len(xs))
	}
	b, _, _ := LinearFit(xs, ys)
	if math.IsNaN(b) {
		return Growth{}, fmt.Errorf("growth: all sizes are equal")
	}
	g := Growth{Exponent: b, Expected: expected}
	switch {
	case b <= flatHigh:
		g.Verdict = "flat"
	case b < linearLow:
		g.Verdict = "sublinear"
	case b <= linearHigh:
		g.Verdict = "linear"
	default:
		g.Verdict = "superlinear"
	}
	g.OK = g.Verdict == expected
	return g, nil
}

// LinearFit returns slope, intercept and R^2 of y = intercept + slope*x.
func LinearFit(xs, ys []float64) (slope, intercept, r2 float64) {
	n := float64(len(xs))
	var sx, sy, sxx, sxy, syy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
		syy += ys[i] * ys[i]
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	slope = (n*sxy - sx*sy) / den
	intercept = (sy - slope*sx) / n
	vy := n*syy - sy*sy
	if vy == 0 {
		return slope, intercept, 1
	}
	r := (n*sxy - sx*sy) / math.Sqrt(den*vy)
	return slope, intercept, r * r
}
