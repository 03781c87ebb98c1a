package stats

import (
	"math"
	"testing"
)

func abNear(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// A constant pair (10 ms against 5 ms), six times: every resample has the
// same ratio, so the interval is [2, 2]; rates 0.1 and 0.2 per ms,
// improvement (0.2 - 0.1) / 0.1 x 100 = 100 %; all six signs alike, p =
// 2/64.
func TestCompareABConstant(t *testing.T) {
	c, err := CompareAB([]float64{10, 10, 10, 10, 10, 10}, []float64{5, 5, 5, 5, 5, 5}, 0.95, 2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Pairs != 6 || !abNear(c.MedianA, 10) || !abNear(c.MedianB, 5) || !abNear(c.Difference, 5) || !abNear(c.Factor, 2) {
		t.Errorf("medians/difference/factor: %+v", c)
	}
	if !abNear(c.RateA, 0.1) || !abNear(c.RateB, 0.2) || !abNear(c.ImprovementPct, 100) {
		t.Errorf("rates/improvement: %+v", c)
	}
	if !abNear(c.Low, 2) || !abNear(c.High, 2) || !abNear(c.P, 2.0/64) || c.Verdict != VerdictBFaster {
		t.Errorf("interval [%g, %g] p %g verdict %q, want [2, 2] p 2/64 B faster", c.Low, c.High, c.P, c.Verdict)
	}
	// Three such pairs: the same interval, but p = 2/8, no verdict of a
	// difference can come from three pairs: too few, not "no difference".
	c, _ = CompareAB([]float64{10, 10, 10}, []float64{5, 5, 5}, 0.95, 2000, 1)
	if !abNear(c.Low, 2) || !abNear(c.P, 0.25) || c.Verdict != VerdictTooFew {
		t.Errorf("three pairs: interval [%g, %g] p %g verdict %q, want p 0.25, %q", c.Low, c.High, c.P, c.Verdict, VerdictTooFew)
	}
}

// B slower: 1 against 2 gives factor 0.5; rate A = 1, rate B = 0.5, so
// the improvement is (0.5 - 1) / 1 x 100 = -50 %.
func TestCompareABAFaster(t *testing.T) {
	c, err := CompareAB([]float64{1, 1, 1, 1, 1, 1}, []float64{2, 2, 2, 2, 2, 2}, 0.95, 2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !abNear(c.Factor, 0.5) || !abNear(c.ImprovementPct, -50) || !abNear(c.Difference, -1) || c.Verdict != VerdictAFaster {
		t.Errorf("%+v", c)
	}
}

// Identical variants: each resample draws the same indices for A and B, so
// every resampled ratio is exactly 1 and the interval [1, 1] does not
// exclude 1.
func TestCompareABIdentical(t *testing.T) {
	x := []float64{10, 12, 11, 13, 9, 14}
	c, err := CompareAB(x, x, 0.95, 2000, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !abNear(c.Factor, 1) || !abNear(c.Low, 1) || !abNear(c.High, 1) || c.Verdict != VerdictNoDiff {
		t.Errorf("%+v", c)
	}
}

// Pairs that disagree: three pairs favour A (1 against 2), two favour B (4
// against 1). A resample's median of A is 1 and of B is 2 exactly when it
// draws at least three of the first three indices (probability
// 1 - P(Bin(5, 0.4) >= 3) = 0.68256), giving ratio 0.5; otherwise both
// medians come from the last two pairs, ratio 4. So the 2.5 % and 97.5 %
// quantiles are 0.5 and 4: the point factor 0.5 says "A faster", but the
// interval does not exclude 1. Five pairs are too few for any verdict.
func TestCompareABDisagreeingPairs(t *testing.T) {
	c, err := CompareAB([]float64{1, 1, 1, 4, 4}, []float64{2, 2, 2, 1, 1}, 0.95, 2000, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !abNear(c.Factor, 0.5) || !abNear(c.Low, 0.5) || !abNear(c.High, 4) || c.Verdict != VerdictTooFew {
		t.Errorf("factor %g interval [%g, %g] verdict %q, want 0.5 [0.5, 4] %q", c.Factor, c.Low, c.High, c.Verdict, VerdictTooFew)
	}
}

// Noisy but separated: every resampled ratio lies between the smallest A
// over the largest B (98/53) and the largest A over the smallest B
// (103/48), both above 1; six positive log ratios, p = 2/64.
func TestCompareABSeparated(t *testing.T) {
	c, err := CompareAB([]float64{100, 102, 98, 101, 99, 103}, []float64{50, 51, 49, 52, 48, 53}, 0.95, 2000, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !abNear(c.Factor, 100.5/50.5) || c.Low < 98.0/53-1e-12 || c.High > 103.0/48+1e-12 || c.Low > c.High || c.Verdict != VerdictBFaster {
		t.Errorf("%+v", c)
	}
}

func TestABVerdict(t *testing.T) {
	for _, tc := range []struct {
		low, high float64
		pairs     int
		p         float64
		want      string
	}{
		{1.1, 1.3, 6, 0.03, VerdictBFaster},
		{0.7, 0.9, 6, 0.03, VerdictAFaster},
		{1.1, 1.3, 5, 0.0625, VerdictTooFew}, // 5 pairs can never reach 0.05
		{0.9, 1.1, 5, 0.8, VerdictTooFew},
		{0.9, 1.1, 3, 0.5, VerdictTooFew},
		{1.1, 1.3, 6, 0.0625, VerdictNoDiff}, // the interval alone is not enough
		{1, 1.3, 6, 0.03, VerdictNoDiff},     // touching 1 is not excluding it
		{0.8, 1, 6, 0.03, VerdictNoDiff},
		{0.9, 1.1, 6, 0.5, VerdictNoDiff},
		{1.5, 1.5, 2, 0.5, VerdictTooFew},
		{math.NaN(), math.NaN(), 5, math.NaN(), VerdictTooFew},
	} {
		if got := ABVerdict(tc.low, tc.high, tc.pairs, tc.p, 0.05); got != tc.want {
			t.Errorf("ABVerdict(%g, %g, %d, p %g) = %q, want %q", tc.low, tc.high, tc.pairs, tc.p, got, tc.want)
		}
	}
}

// The smallest p-values by hand: all n signs alike, 2 of the 2^n
// assignments; 6 pairs are the fewest below 0.05 (2/64), 7 below 0.02.
func TestPairsCanDiffer(t *testing.T) {
	if got := SmallestSignedRankP(5); !abNear(got, 2.0/32) {
		t.Errorf("smallest p of 5 pairs %v, want 2/32", got)
	}
	for n, want := range map[int]bool{2: false, 3: false, 5: false, 6: true, 10: true} {
		if got := PairsCanDiffer(n, 0.05); got != want {
			t.Errorf("PairsCanDiffer(%d, 0.05) = %v, want %v", n, got, want)
		}
	}
	if got := FewestPairs(0.05); got != 6 {
		t.Errorf("FewestPairs(0.05) = %d, want 6", got)
	}
	if got := FewestPairs(0.02); got != 7 {
		t.Errorf("FewestPairs(0.02) = %d, want 7", got)
	}
	// 5 pairs all one way: the interval excludes 1, yet too few to judge.
	c, err := CompareAB([]float64{10, 11, 12, 13, 14}, []float64{5, 5, 5, 5, 5}, 0.95, 2000, 1)
	if err != nil || c.Verdict != VerdictTooFew {
		t.Errorf("5 pairs all faster: verdict %q (%v), want %q", c.Verdict, err, VerdictTooFew)
	}
}

// Signed-rank p-values counted by hand over the 2^n equally likely sign
// assignments of the ranks of |log(a/b)|.
func TestSignedRankP(t *testing.T) {
	cases := []struct {
		name string
		a, b []float64
		want float64
	}{
		// five ratios all above 1: W = 15, the largest, 1 of 32, doubled
		{"five one way", []float64{2, 3, 4, 5, 6}, []float64{1, 1, 1, 1, 1}, 2.0 / 32},
		{"six one way", []float64{2, 3, 4, 5, 6, 7}, []float64{1, 1, 1, 1, 1, 1}, 2.0 / 64},
		{"six the other way", []float64{1, 1, 1, 1, 1, 1}, []float64{2, 3, 4, 5, 6, 7}, 2.0 / 64},
		// ratios 2, 3, 4 (ranks 1, 2, 3) up and 1/5 (rank 4) down: W+ =
		// 6 of 10; W+ >= 6 for {4,2}, {4,3}, {4,2,1}... counted: the 16
		// subsets of {1,2,3,4} with sum >= 6 are {1,2,3}, {2,4}, {3,4},
		// {1,2,4}, {1,3,4}, {2,3,4}, {1,2,3,4}: 7 of 16
		{"mixed", []float64{2, 3, 4, 1}, []float64{1, 1, 1, 5}, 2 * 7.0 / 16},
		// equal times carry no sign: two of five pairs left, both up, 1 of 4
		{"zeros dropped", []float64{2, 3, 1, 1, 1}, []float64{1, 1, 1, 1, 1}, 2.0 / 4},
		{"no difference", []float64{1, 2}, []float64{1, 2}, 1},
	}
	for _, c := range cases {
		if got := SignedRankP(c.a, c.b); !abNear(got, c.want) {
			t.Errorf("%s: p %v, want %v", c.name, got, c.want)
		}
	}
	if !math.IsNaN(SignedRankP([]float64{1}, []float64{0})) {
		t.Error("a zero time has a p-value")
	}
}

func TestCompareABBadInput(t *testing.T) {
	if _, err := CompareAB([]float64{1, 2}, []float64{1}, 0.95, 100, 1); err == nil {
		t.Error("unpaired times accepted")
	}
	if _, err := CompareAB(nil, nil, 0.95, 100, 1); err == nil {
		t.Error("no pairs accepted")
	}
	if _, err := CompareAB([]float64{1, 0}, []float64{1, 1}, 0.95, 100, 1); err == nil {
		t.Error("a zero time accepted")
	}
}
