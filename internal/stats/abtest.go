package stats

import (
	"fmt"
	"math"
)

// A/B comparison arithmetic (seed 004, Tests 5 and 8): two variants of one
// system ran the same query in pairs (A then B, repetition by repetition).
// The factor is time A / time B of the medians, the effective rate is 1 /
// time and the percent improvement is (rate B - rate A) / rate A x 100,
// which is (factor - 1) x 100. Whether the difference is real is read off a
// bootstrap interval of the factor that resamples whole pairs, so drift
// that hit both executions of a pair stays inside the pair, together with
// the Wilcoxon signed-rank test of the pairs (at least 6 pairs are needed
// for a difference at 0.05).

// Verdicts of an A/B comparison.
const (
	VerdictBFaster = "B faster"
	VerdictAFaster = "A faster"
	VerdictNoDiff  = "no significant difference"
	// VerdictTooFew: fewer than MinABPairs pairs give no useful interval
	// (one pair gives a zero-width one that would call any difference real).
	VerdictTooFew = "too few repetitions"
)

// MinABPairs is the fewest pairs a verdict is given for.
const MinABPairs = 3

// ABComparison is the comparison of paired times a[i], b[i] (any unit; the
// rates are per that unit).
type ABComparison struct {
	Pairs   int     `json:"pairs"`
	MedianA float64 `json:"median_a"`
	MedianB float64 `json:"median_b"`
	// Difference is MedianA - MedianB: positive when B is faster.
	Difference float64 `json:"difference"`
	// Factor is MedianA / MedianB: above 1 when B is faster.
	Factor float64 `json:"factor"`
	RateA  float64 `json:"rate_a"` // 1 / MedianA
	RateB  float64 `json:"rate_b"` // 1 / MedianB
	// ImprovementPct is (RateB - RateA) / RateA x 100.
	ImprovementPct float64 `json:"improvement_pct"`
	// Low and High bound the factor at Level by the paired bootstrap.
	Low       float64 `json:"ci_low"`
	High      float64 `json:"ci_high"`
	Level     float64 `json:"level"`
	Resamples int     `json:"resamples"`
	// P is the two-sided Wilcoxon signed-rank p-value of the pairs'
	// log ratios (SignedRankP).
	P       float64 `json:"p"`
	Verdict string  `json:"verdict"`
}

// CompareAB compares the paired times a and b: medians, difference,
// factor, rates, improvement, the percentile bootstrap interval of the
// factor median(a*)/median(b*) over resampled pairs (the same indices drawn
// for both), and the verdict: "B faster" when the interval lies above 1,
// "A faster" below 1, otherwise no significant difference.
func CompareAB(a, b []float64, level float64, resamples int, seed uint64) (ABComparison, error) {
	if len(a) != len(b) {
		return ABComparison{}, fmt.Errorf("a/b comparison: %d times of A but %d of B: the times must come in pairs", len(a), len(b))
	}
	if len(a) == 0 {
		return ABComparison{}, fmt.Errorf("a/b comparison: no pairs")
	}
	for i := range a {
		if !(a[i] > 0) || !(b[i] > 0) {
			return ABComparison{}, fmt.Errorf("a/b comparison: pair %d has times %g and %g; times must be positive", i+1, a[i], b[i])
		}
	}
	c := ABComparison{Pairs: len(a), MedianA: Median(a), MedianB: Median(b), Level: level, Resamples: resamples}
	c.Difference = c.MedianA - c.MedianB
	c.Factor = c.MedianA / c.MedianB
	c.RateA, c.RateB = 1/c.MedianA, 1/c.MedianB
	c.ImprovementPct = (c.RateB - c.RateA) / c.RateA * 100
	iv := PairedRatioCI(a, b, level, resamples, seed)
	c.Low, c.High = iv.Low, iv.High
	c.P = SignedRankP(a, b)
	c.Verdict = ABVerdict(c.Low, c.High, c.Pairs, c.P, 1-level)
	return c, nil
}

// PairedRatioCI is the percentile bootstrap interval of median(a)/median(b)
// where each resample draws pair indices with replacement: the bootstrap
// runs over the indices, so the generator and quantiles are BootstrapCI's.
func PairedRatioCI(a, b []float64, level float64, resamples int, seed uint64) Interval {
	idx := make([]float64, len(a))
	for i := range idx {
		idx[i] = float64(i)
	}
	xa, xb := make([]float64, len(a)), make([]float64, len(b))
	ratio := func(sample []float64) float64 {
		for j, v := range sample {
			xa[j], xb[j] = a[int(v)], b[int(v)]
		}
		return Median(xa) / Median(xb)
	}
	return BootstrapCI(idx, ratio, level, resamples, seed)
}

// SmallestSignedRankP is the smallest two-sided p-value the exact
// signed-rank test can give n pairs: every pair on one side, 2 / 2^n (1
// without pairs). Pairs with equal times and tied magnitudes only make it
// larger.
func SmallestSignedRankP(n int) float64 {
	if n < 1 {
		return 1
	}
	return math.Min(1, 2/math.Pow(2, float64(n)))
}

// PairsCanDiffer says whether n pairs can give a verdict of a difference
// at all at significance alpha: the signed-rank test must be able to reach
// a p-value below alpha. At 0.05, 5 pairs (smallest p 2/32) cannot,
// whatever their interval says; 6 (2/64) can. Such a comparison has too
// few pairs, not "no significant difference", which would read as a
// finding. The paired counterpart of CanDiffer.
func PairsCanDiffer(n int, alpha float64) bool {
	return n >= MinABPairs && SmallestSignedRankP(n) < alpha
}

// FewestPairs is the fewest pairs that can differ at significance alpha
// (PairsCanDiffer): 6 at 0.05, for the messages that say how many to run.
func FewestPairs(alpha float64) int {
	n := MinABPairs
	for !PairsCanDiffer(n, alpha) && n < 64 {
		n++
	}
	return n
}

// ABVerdict reads the interval [low, high] of time A / time B and the
// signed-rank p-value p: too few pairs when no p-value of that many
// could fall below alpha (PairsCanDiffer); a variant is faster when the interval lies on its
// side of 1 and p is below alpha; the interval alone is too narrow on a
// few pairs (see SignedRankP).
func ABVerdict(low, high float64, pairs int, p, alpha float64) string {
	switch {
	case !PairsCanDiffer(pairs, alpha) || math.IsNaN(low) || math.IsNaN(high):
		return VerdictTooFew
	case !(p < alpha):
		return VerdictNoDiff
	case low > 1:
		return VerdictBFaster
	case high < 1:
		return VerdictAFaster
	}
	return VerdictNoDiff
}
