package stats

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestSummarize(t *testing.T) {
	s := Summarize([]float64{4, 1, 3, 2})
	if s.N != 4 || !near(s.Median, 2.5) || !near(s.Mean, 2.5) || s.Min != 1 || s.Max != 4 {
		t.Fatalf("summary %+v", s)
	}
	// sample stddev of 1,2,3,4 = sqrt(5/3)
	if !near(s.StdDev, math.Sqrt(5.0/3)) {
		t.Errorf("stddev %v", s.StdDev)
	}
	if m := Median([]float64{5, 1, 3}); m != 3 {
		t.Errorf("median %v", m)
	}
}

func TestLinearFit(t *testing.T) {
	slope, icpt, r2 := LinearFit([]float64{1, 2, 3}, []float64{3, 5, 7})
	if !near(slope, 2) || !near(icpt, 1) || !near(r2, 1) {
		t.Errorf("fit %v %v %v", slope, icpt, r2)
	}
}

func TestFitGrowth(t *testing.T) {
	cases := []struct {
		times    []float64
		expected string
		verdict  string
		ok       bool
	}{
		{[]float64{1, 10, 100}, "linear", "linear", true},
		{[]float64{1, 1.1, 1.2}, "flat", "flat", true},
		{[]float64{1, 100, 10000}, "linear", "superlinear", false},
		{[]float64{1, 3, 9}, "flat", "sublinear", false},
	}
	for _, c := range cases {
		g, err := FitGrowth([]float64{1e4, 1e5, 1e6}, c.times, c.expected)
		if err != nil {
			t.Fatal(err)
		}
		if g.Verdict != c.verdict || g.OK != c.ok {
			t.Errorf("times %v: got %+v, want %s ok=%v", c.times, g, c.verdict, c.ok)
		}
	}
	if _, err := FitGrowth([]float64{10}, []float64{1}, "linear"); err == nil {
		t.Error("one size accepted")
	}
}

// Times that are all equal lie exactly on the flat line y = c: the residual
// sum of squares is 0, the fit explains every point, and R^2 is 1 by the
// documented convention (the total sum of squares is 0 too, so the ratio
// 1 - SSres/SStot is 0/0; a flat line through a flat sample is a perfect
// fit, not an undefined or a worthless one). 0.3, 0.1 and 1/3 are not exact
// binary fractions, so their mean is not exactly c: the old one-pass sums
// left a few ulps of "variance" and gave R^2 0 or NaN.
func TestLinearFitConstantY(t *testing.T) {
	for _, c := range []float64{0.3, 0.1, 1.0 / 3, 123.456, 7} {
		for _, xs := range [][]float64{{1, 2, 3}, {1, 2, 3, 4, 5}, {1e4, 1e5, 1e6}, {1e8, 1e8 + 1, 1e8 + 2}} {
			ys := make([]float64, len(xs))
			for i := range ys {
				ys[i] = c
			}
			slope, icpt, r2 := LinearFit(xs, ys)
			if slope != 0 || icpt != c || r2 != 1 {
				t.Errorf("LinearFit(%v, all %v) = slope %v, intercept %v, R^2 %v; want 0, %v, 1", xs, c, slope, icpt, r2, c)
			}
		}
	}
}

// Sizes 1e8 .. 1e8+3 with times 1, 3, 5, 7 lie on y = 1 + 2(x - 1e8) =
// 2x - 199999999: slope 2, intercept -199999999, R^2 1. The centred sizes
// are -1.5, -0.5, 0.5, 1.5 and times -3, -1, 1, 3 (all exact in binary):
// Sxx 5, Sxy 10, Syy 20, slope 10/5 = 2, R^2 100/(5 x 20) = 1. The
// one-pass sums n*Sum(x^2) - Sum(x)^2 cancel 16 of their 17 digits here and
// gave slope 1.25, R^2 0.625.
func TestLinearFitLargeCloseX(t *testing.T) {
	slope, icpt, r2 := LinearFit([]float64{1e8, 1e8 + 1, 1e8 + 2, 1e8 + 3}, []float64{1, 3, 5, 7})
	if !within(slope, 2, 1e-12) || !within(icpt, -199999999, 1e-6) || !within(r2, 1, 1e-12) {
		t.Errorf("fit slope %v, intercept %v, R^2 %v; want 2, -199999999, 1", slope, icpt, r2)
	}
	// TestFitLineByHand's points moved to x = 1e9 .. 1e9+2 and y = 1e6 + 1, 3, 2:
	// centred they are the same, so slope 0.5 and R^2 0.25 again, and the
	// intercept is 1e6 + 1.5 - 0.5 x 1e9 = -499000000 + 1.5.
	slope, icpt, r2 = LinearFit([]float64{1e9, 1e9 + 1, 1e9 + 2}, []float64{1e6 + 1, 1e6 + 3, 1e6 + 2})
	if !within(slope, 0.5, 1e-12) || !within(icpt, -499000000+1.5, 1e-6) || !within(r2, 0.25, 1e-12) {
		t.Errorf("fit slope %v, intercept %v, R^2 %v; want 0.5, -498999998.5, 0.25", slope, icpt, r2)
	}
	// Equal sizes still have no line, even when their mean is inexact.
	if s, _, _ := LinearFit([]float64{0.1, 0.1, 0.1}, []float64{1, 2, 3}); !math.IsNaN(s) {
		t.Errorf("equal sizes 0.1 fitted with slope %v", s)
	}
}

// Equal times at every size grow with exponent 0 (t = c N^0): flat.
func TestFitGrowthConstant(t *testing.T) {
	g, err := FitGrowth([]float64{1e4, 1e5, 1e6}, []float64{0.3, 0.3, 0.3}, "flat")
	if err != nil || g.Exponent != 0 || g.Verdict != "flat" || !g.OK {
		t.Errorf("growth %+v, %v; want exponent 0, flat", g, err)
	}
}
