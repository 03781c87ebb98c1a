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

// LinearFit returns slope, intercept and R^2 of the least-squares line
// y = intercept + slope*x. Equal xs (or none) have no line: all three are
// NaN. Equal ys lie exactly on the flat line y = ys[0]: slope 0 and R^2 1
// (both sums of squares are 0; the flat line leaves no residual, so it
// explains all there is to explain).
//
// The sums are centred, in two passes: the means first, then sums of
// products of deviations from them. The one-pass form n*Sum(x^2) - Sum(x)^2
// subtracts two nearly equal large numbers whenever the xs are large and
// close together (sizes 1e8 .. 1e8+3 lose 16 of their 17 digits) and leaves
// a few ulps of spurious variance in a constant y.
func LinearFit(xs, ys []float64) (slope, intercept, r2 float64) {
	if len(xs) == 0 || allEqual(xs) {
		return math.NaN(), math.NaN(), math.NaN()
	}
	if allEqual(ys) {
		// Tested on the values, not on a variance: the mean of equal
		// values such as 0.3 is not always exactly 0.3 in binary.
		return 0, ys[0], 1
	}
	mx, my := mean(xs), mean(ys)
	var sxx, sxy, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	if sxx == 0 { // distinct xs whose squared deviations underflow
		return math.NaN(), math.NaN(), math.NaN()
	}
	slope = sxy / sxx
	intercept = my - slope*mx
	if syy == 0 { // distinct ys whose squared deviations underflow
		return slope, intercept, 1
	}
	r := sxy / (math.Sqrt(sxx) * math.Sqrt(syy))
	return slope, intercept, min(r*r, 1) // rounding may put r^2 an ulp above 1
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func allEqual(xs []float64) bool {
	for _, x := range xs[1:] {
		if x != xs[0] {
			return false
		}
	}
	return true
}
