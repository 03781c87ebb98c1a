package stats

import (
	"math"
	"testing"
)

func abNear(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// A constant pair (10 ms against 5 ms): every resample has the same ratio,
// so the interval is [2, 2]; rates 0.1 and 0.2 per ms, improvement
// (0.2 - 0.1) / 0.1 x 100 = 100 %.
func TestCompareABConstant(t *testing.T) {
	c, err := CompareAB([]float64{10, 10, 10}, []float64{5, 5, 5}, 0.95, 2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Pairs != 3 || !abNear(c.MedianA, 10) || !abNear(c.MedianB, 5) || !abNear(c.Difference, 5) || !abNear(c.Factor, 2) {
		t.Errorf("medians/difference/factor: %+v", c)
	}
	if !abNear(c.RateA, 0.1) || !abNear(c.RateB, 0.2) || !abNear(c.ImprovementPct, 100) {
		t.Errorf("rates/improvement: %+v", c)
	}
	if !abNear(c.Low, 2) || !abNear(c.High, 2) || c.Verdict != VerdictBFaster {
		t.Errorf("interval [%g, %g] verdict %q, want [2, 2] B faster", c.Low, c.High, c.Verdict)
	}
}

// B slower: 1 against 2 gives factor 0.5; rate A = 1, rate B = 0.5, so
// the improvement is (0.5 - 1) / 1 x 100 = -50 %.
func TestCompareABAFaster(t *testing.T) {
	c, err := CompareAB([]float64{1, 1, 1, 1, 1}, []float64{2, 2, 2, 2, 2}, 0.95, 2000, 1)
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
	x := []float64{10, 12, 11, 13, 9}
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
// interval does not exclude 1.
func TestCompareABDisagreeingPairs(t *testing.T) {
	c, err := CompareAB([]float64{1, 1, 1, 4, 4}, []float64{2, 2, 2, 1, 1}, 0.95, 2000, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !abNear(c.Factor, 0.5) || !abNear(c.Low, 0.5) || !abNear(c.High, 4) || c.Verdict != VerdictNoDiff {
		t.Errorf("factor %g interval [%g, %g] verdict %q, want 0.5 [0.5, 4] %q", c.Factor, c.Low, c.High, c.Verdict, VerdictNoDiff)
	}
}

// Noisy but separated: every resampled ratio lies between the smallest A
// over the largest B (98/52) and the largest A over the smallest B
// (102/48), both above 1.
func TestCompareABSeparated(t *testing.T) {
	c, err := CompareAB([]float64{100, 102, 98, 101, 99}, []float64{50, 51, 49, 52, 48}, 0.95, 2000, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !abNear(c.Factor, 2) || c.Low < 98.0/52-1e-12 || c.High > 102.0/48+1e-12 || c.Low > c.High || c.Verdict != VerdictBFaster {
		t.Errorf("%+v", c)
	}
}

func TestABVerdict(t *testing.T) {
	for _, tc := range []struct {
		low, high float64
		pairs     int
		want      string
	}{
		{1.1, 1.3, 5, VerdictBFaster},
		{0.7, 0.9, 5, VerdictAFaster},
		{1, 1.3, 5, VerdictNoDiff}, // touching 1 is not excluding it
		{0.8, 1, 5, VerdictNoDiff},
		{0.9, 1.1, 5, VerdictNoDiff},
		{1.5, 1.5, 2, VerdictTooFew},
		{math.NaN(), math.NaN(), 5, VerdictTooFew},
	} {
		if got := ABVerdict(tc.low, tc.high, tc.pairs); got != tc.want {
			t.Errorf("ABVerdict(%g, %g, %d) = %q, want %q", tc.low, tc.high, tc.pairs, got, tc.want)
		}
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
