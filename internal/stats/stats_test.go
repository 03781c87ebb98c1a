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
