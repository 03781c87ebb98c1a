package stats

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Comparison of runs (dbgauge compare): one metric measured with
// repetitions in a baseline run and in another run. Unlike abtest's pairs,
// the two samples are unpaired: the runs were taken at different times,
// often on different engines, so repetition i of one has nothing to do
// with repetition i of the other. The ratio is median(other) /
// median(baseline); its interval is the percentile bootstrap that resamples
// the two samples independently. The verdict reads the interval: entirely
// above or below 1 is a real difference, and whether that means faster or
// slower depends on the metric: a rate is better bigger, a time smaller.

// Better says which direction of a metric is an improvement.
type Better int

const (
	// SmallerIsBetter: times (query time, wall time, latency).
	SmallerIsBetter Better = iota
	// BiggerIsBetter: rates (tps, scripts per second, MB/s).
	BiggerIsBetter
)

// Verdicts of a comparison of runs, besides VerdictNoDiff and
// VerdictTooFew shared with the A/B comparison.
const (
	// VerdictFaster: the other run is better than the baseline (a bigger
	// rate or a smaller time), with the whole interval on that side of 1.
	VerdictFaster = "faster"
	// VerdictSlower: the other run is worse than the baseline.
	VerdictSlower = "slower"
	// VerdictNotComparable: no ratio can be formed (a missing or
	// non-positive measurement); RunComparison.Reason says which.
	VerdictNotComparable = "not comparable"
)

// MinCompareReps is the fewest repetitions each run needs for an
// interval: as for A/B pairs, fewer give an interval too narrow to mean
// anything. A verdict needs more (CanDiffer).
const MinCompareReps = MinABPairs

// SmallestRankSumP is the smallest two-sided p-value the exact
// Mann-Whitney test can give n1 against n2 values: the two most extreme
// of the C(n1+n2, n1) splits, 2 / C(n1+n2, n1) (1 when either is empty).
// Ties only make it larger.
func SmallestRankSumP(n1, n2 int) float64 {
	if n1 < 1 || n2 < 1 {
		return 1
	}
	// C(n1+n2, n1) as a product of ratios, exact enough in float64.
	c := 1.0
	for i := 1; i <= n1; i++ {
		c = c * float64(n2+i) / float64(i)
	}
	return math.Min(1, 2/c)
}

// CanDiffer says whether n1 against n2 repetitions can give a verdict of a
// difference at all at level: the rank test must be able to reach a
// p-value below 1 - level. At 0.95, 3 against 3 (smallest p 0.1) and 3
// against 4 (0.057) cannot, whatever their interval says; 4 against 4
// (0.029) and 3 against 5 (0.036) can. Such rows are too few to judge,
// not "no significant difference", which would read as a finding.
func CanDiffer(n1, n2 int, level float64) bool {
	return n1 >= MinCompareReps && n2 >= MinCompareReps && SmallestRankSumP(n1, n2) < 1-level
}

// RunComparison is one metric of another run against the baseline.
type RunComparison struct {
	NBase       int     `json:"n_baseline"`
	NOther      int     `json:"n_other"`
	MedianBase  float64 `json:"median_baseline"`
	MedianOther float64 `json:"median_other"`
	// Ratio is MedianOther / MedianBase (NaN when not comparable).
	Ratio float64 `json:"ratio"`
	// Low and High bound the ratio at Level; NaN when there is no interval
	// (fewer than MinCompareReps repetitions, or not comparable).
	Low       float64 `json:"ci_low"`
	High      float64 `json:"ci_high"`
	Level     float64 `json:"level"`
	Resamples int     `json:"resamples"`
	// P is the two-sided Mann-Whitney p-value of the two samples (NaN
	// without an interval); Q is P adjusted for the many metrics of one
	// comparison (AdjustRunComparisons; P itself until then).
	P       float64 `json:"p"`
	Q       float64 `json:"q"`
	Verdict string  `json:"verdict"`
	Reason  string  `json:"reason,omitempty"` // why not comparable
	// Better is the metric's better direction, kept for AdjustRunComparisons.
	Better Better `json:"-"`
}

// HasInterval says whether the comparison has a confidence interval.
func (c RunComparison) HasInterval() bool {
	return !math.IsNaN(c.Low) && !math.IsNaN(c.High)
}

// CompareRuns compares the repetitions other with the baseline's base:
// medians, their ratio, the bootstrap interval of the ratio (level,
// resamples and seed as BootstrapCI) when both have at least
// MinCompareReps positive values, and the verdict for a metric whose
// better direction is better.
func CompareRuns(base, other []float64, better Better, level float64, resamples int, seed uint64) RunComparison {
	c := RunComparison{NBase: len(base), NOther: len(other), MedianBase: Median(base), MedianOther: Median(other),
		Ratio: math.NaN(), Low: math.NaN(), High: math.NaN(), Level: level, Resamples: resamples,
		P: math.NaN(), Q: math.NaN(), Better: better}
	switch {
	case len(base) == 0:
		c.Verdict, c.Reason = VerdictNotComparable, "not measured in the baseline"
		return c
	case len(other) == 0:
		c.Verdict, c.Reason = VerdictNotComparable, "not measured in this run"
		return c
	case !(c.MedianBase > 0) || math.IsInf(c.MedianBase, 0):
		c.Verdict, c.Reason = VerdictNotComparable, "the baseline's median is not a positive number"
		return c
	case !(c.MedianOther >= 0) || math.IsInf(c.MedianOther, 0):
		c.Verdict, c.Reason = VerdictNotComparable, "this run's median is not a number"
		return c
	}
	c.Ratio = c.MedianOther / c.MedianBase
	if len(base) < MinCompareReps || len(other) < MinCompareReps {
		c.Verdict = VerdictTooFew
		return c
	}
	if !allPositive(base) || !allPositive(other) {
		// A resample of zeros has no ratio: rather no interval than one
		// that silently leaves those resamples out.
		c.Verdict, c.Reason = VerdictNotComparable, "a repetition measured zero or less: no interval"
		return c
	}
	iv := TwoSampleRatioCI(base, other, level, resamples, seed)
	c.Low, c.High = iv.Low, iv.High
	c.P = MannWhitneyP(base, other)
	c.Q = c.P
	c.decide()
	return c
}

// decide sets the verdict of a comparison with an interval: too few
// repetitions when the rank test could not reach significance with any
// data (CanDiffer); otherwise a difference (faster or slower) needs both
// the interval to exclude 1 and the (adjusted) p-value to be below
// 1 - Level; anything else is no significant difference. The interval
// alone is not enough: from a few repetitions a percentile bootstrap
// interval is too narrow (see MannWhitneyP).
func (c *RunComparison) decide() {
	if !c.HasInterval() {
		return
	}
	if !CanDiffer(c.NBase, c.NOther, c.Level) {
		c.Verdict = VerdictTooFew
		return
	}
	c.Verdict = CompareVerdict(c.Low, c.High, c.Better)
	if c.Verdict != VerdictNoDiff && !(c.Q < 1-c.Level) {
		c.Verdict = VerdictNoDiff
	}
}

// AdjustRunComparisons adjusts the p-values of the metrics of one run
// against the baseline for their number (Benjamini-Hochberg, AdjustBH)
// and decides their verdicts again: on a page of a hundred metrics,
// about five would otherwise differ by chance alone.
func AdjustRunComparisons(cs []*RunComparison) {
	ps := make([]float64, len(cs))
	for i, c := range cs {
		ps[i] = c.P
	}
	for i, q := range AdjustBH(ps) {
		cs[i].Q = q
		cs[i].decide()
	}
}

// TwoSampleRatioCI is the percentile bootstrap interval of
// median(other)/median(base) where each resample draws base and other
// independently with replacement (BootstrapCI resamples one sample,
// PairedRatioCI whole pairs; unpaired runs need neither). Limits are
// nearest-rank quantiles as in BootstrapCI; the generator is seeded, so
// the interval is reproducible. Values must be positive.
func TwoSampleRatioCI(base, other []float64, level float64, resamples int, seed uint64) Interval {
	out := Interval{Level: level, Resamples: resamples}
	if len(base) == 0 || len(other) == 0 || resamples < 1 {
		out.Low, out.High = math.NaN(), math.NaN()
		return out
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(base))<<32|uint64(len(other))))
	xb, xo := make([]float64, len(base)), make([]float64, len(other))
	ratios := make([]float64, resamples)
	for r := range ratios {
		for i := range xb {
			xb[i] = base[rng.IntN(len(base))]
		}
		for i := range xo {
			xo[i] = other[rng.IntN(len(other))]
		}
		ratios[r] = Median(xo) / Median(xb)
	}
	sort.Float64s(ratios)
	tail := (1 - level) / 2
	out.Low = Quantile(ratios, tail)
	out.High = Quantile(ratios, 1-tail)
	return out
}

// CompareVerdict reads the interval [low, high] of other / baseline: above
// 1 is a bigger value, below 1 a smaller one, and which of the two is
// faster depends on better. A NaN limit (no interval) gives VerdictTooFew.
func CompareVerdict(low, high float64, better Better) string {
	switch {
	case math.IsNaN(low) || math.IsNaN(high):
		return VerdictTooFew
	case low > 1:
		if better == BiggerIsBetter {
			return VerdictFaster
		}
		return VerdictSlower
	case high < 1:
		if better == BiggerIsBetter {
			return VerdictSlower
		}
		return VerdictFaster
	}
	return VerdictNoDiff
}

func allPositive(xs []float64) bool {
	for _, x := range xs {
		if !(x > 0) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
