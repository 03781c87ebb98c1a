package stats

import (
	"math"
	"testing"
)

// The p-values below are counted by hand over the C(n1+n2, n1) equally
// likely splits of the pooled ranks.
func TestMannWhitneyP(t *testing.T) {
	cases := []struct {
		name   string
		xs, ys []float64
		want   float64
	}{
		// apart: one split of 20 as low as this, doubled
		{"3 vs 3 apart", []float64{1, 2, 3}, []float64{4, 5, 6}, 2.0 / 20},
		{"3 vs 3 apart, swapped", []float64{4, 5, 6}, []float64{1, 2, 3}, 2.0 / 20},
		// U = 3 (3>2, 5>2, 5>4); the 20 splits have U = 0..9 with counts
		// 1,1,2,3,3,3,3,2,1,1: P(U <= 3) = 7/20
		{"3 vs 3 interleaved", []float64{1, 3, 5}, []float64{2, 4, 6}, 2 * 7.0 / 20},
		{"5 vs 5 apart", []float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}, 2.0 / 252},
		{"4 vs 4 apart", []float64{10, 12, 14, 16}, []float64{26, 26, 26, 26}, 2.0 / 70},
		// ties: mid-ranks 1.5,1.5,3.5,3.5,5.5,5.5; xs sum 6.5, the
		// smallest possible, reached by 2 of the 20 splits ({1,1} with
		// either 2)
		{"ties", []float64{1, 1, 2}, []float64{2, 3, 3}, 2 * 2.0 / 20},
		// every value equal: every split alike
		{"all equal", []float64{5, 5, 5}, []float64{5, 5}, 1},
		// constant and apart, with ties inside each sample
		{"constant apart", []float64{5, 5, 5}, []float64{4, 4, 4}, 2.0 / 20},
		{"one vs one", []float64{1}, []float64{2}, 1},
	}
	for _, c := range cases {
		if got := MannWhitneyP(c.xs, c.ys); !near(got, c.want) {
			t.Errorf("%s: p %v, want %v", c.name, got, c.want)
		}
	}
	if !math.IsNaN(MannWhitneyP(nil, []float64{1})) {
		t.Error("an empty sample has a p-value")
	}
}

// Beyond the exact count: 60 against 60 values, the second shifted by a
// tenth of their spread, against the normal approximation worked out by
// hand: U = 60 x 60 / 2 + d with no ties, variance 60 x 60 x 121 / 12.
func TestMannWhitneyPNormal(t *testing.T) {
	var xs, ys []float64
	for i := 0; i < 60; i++ {
		xs = append(xs, float64(2*i))   // 0, 2, ..., 118
		ys = append(ys, float64(2*i+1)) // 1, 3, ..., 119: each y beats its x
	}
	// U of xs = pairs x > y: x=2i beats y=2j+1 when j < i: sum of i = 1770
	u := 1770.0
	z := (math.Abs(u-1800) - 0.5) / math.Sqrt(3600*121.0/12)
	want := math.Erfc(z / math.Sqrt2)
	if got := MannWhitneyP(xs, ys); !near(got, want) {
		t.Errorf("p %v, want %v", got, want)
	}
}

func TestAdjustBH(t *testing.T) {
	// sorted 0.01, 0.03, 0.04, 0.5 of m = 4: 0.04, 0.06, 0.0533, 0.5,
	// then the running minimum from the top
	got := AdjustBH([]float64{0.01, 0.04, 0.03, 0.5, math.NaN()})
	want := []float64{0.04, 0.04 * 4 / 3, 0.04 * 4 / 3, 0.5, math.NaN()}
	for i := range want {
		if math.IsNaN(want[i]) != math.IsNaN(got[i]) || !math.IsNaN(want[i]) && !near(got[i], want[i]) {
			t.Errorf("q[%d] = %v, want %v (all %v)", i, got[i], want[i], got)
		}
	}
}
