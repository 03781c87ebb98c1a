package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// Bootstrap defaults: 2000 resamples give percentile limits that move by
// well under the resolution of a tick between seeds; the seed is fixed so
// that the same executions always give the same interval.
const (
	DefaultResamples     = 2000
	DefaultBootstrapSeed = 0x5454_5076_3200 // "TTPv2"
)

// Interval is a confidence interval for a statistic of a sample.
type Interval struct {
	Low, High float64
	Level     float64 // e.g. 0.95
	Resamples int
}

// BootstrapCI is the percentile bootstrap interval of stat over xs: stat of
// resamples drawn with replacement, limits at the (1-level)/2 and
// (1+level)/2 quantiles (nearest rank, as Quantile: with 2000 resamples at
// 95% the 50th and the 1950th smallest; nearestRank says why the ranks are
// not the bare ceilings of the floating-point products). The generator is seeded
// with seed, so the interval is reproducible. One value gives a zero-width
// interval at stat(xs); no values give NaN limits.
func BootstrapCI(xs []float64, stat func([]float64) float64, level float64, resamples int, seed uint64) Interval {
	out := Interval{Level: level, Resamples: resamples}
	switch {
	case len(xs) == 0 || resamples < 1:
		out.Low, out.High = math.NaN(), math.NaN()
		return out
	case len(xs) == 1:
		v := stat(xs)
		out.Low, out.High = v, v
		return out
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(xs))))
	sample := make([]float64, len(xs))
	stats := make([]float64, resamples)
	for r := range stats {
		for i := range sample {
			sample[i] = xs[rng.IntN(len(xs))]
		}
		stats[r] = stat(sample)
	}
	sort.Float64s(stats)
	tail := (1 - level) / 2
	out.Low = Quantile(stats, tail)
	out.High = Quantile(stats, 1-tail)
	return out
}

// BootstrapMedianCI is the percentile bootstrap interval of the median:
// BootstrapCI(xs, Median, ...) to the last bit, the same draws from the
// same generator, without sorting each resample. xs is sorted once and a
// resample is kept as how often it drew each rank, whose median is a walk
// over the counts: no allocation per resample and O(n) each instead of
// O(n log n). It runs when a run ends, also after Ctrl-C, over every
// repetition measured: sorting 2000 copies of each user count's
// thousands of times made a stopped multiuser run take seconds to end.
func BootstrapMedianCI(xs []float64, level float64, resamples int, seed uint64) Interval {
	if len(xs) < 2 || resamples < 1 || slices.ContainsFunc(xs, math.IsNaN) {
		return BootstrapCI(xs, Median, level, resamples, seed)
	}
	n := len(xs)
	byValue := sortedIndex(xs)
	rank := make([]int, n)
	sorted := make([]float64, n)
	for k, i := range byValue {
		rank[i], sorted[k] = k, xs[i]
	}
	rng := rand.New(rand.NewPCG(seed, uint64(n))) // BootstrapCI's generator
	counts := make([]int, n)
	stats := make([]float64, resamples)
	for r := range stats {
		clear(counts)
		for range n {
			counts[rank[rng.IntN(n)]]++
		}
		stats[r] = countedMedian(sorted, counts, n)
	}
	sort.Float64s(stats)
	tail := (1 - level) / 2
	return Interval{Low: Quantile(stats, tail), High: Quantile(stats, 1-tail), Level: level, Resamples: resamples}
}

// countedMedian is Median of the n values that hold counts[k] copies of
// sorted[k]: the middle one (n odd), or the mean of the two middle ones.
func countedMedian(sorted []float64, counts []int, n int) float64 {
	lo, hi := (n-1)/2, n/2 // 0-based positions of the middle values
	var a float64
	seen := 0
	for k, c := range counts {
		if c == 0 {
			continue
		}
		if seen <= lo && lo < seen+c {
			a = sorted[k]
		}
		if seen <= hi && hi < seen+c {
			if lo == hi {
				return a
			}
			return (a + sorted[k]) / 2
		}
		seen += c
	}
	return math.NaN() // counts sum to less than n: not a resample
}

// RSD is the relative standard deviation: the sample standard deviation
// over the mean. It is NaN for fewer than two values or a zero mean, where
// it means nothing.
func RSD(xs []float64) float64 {
	s := Summarize(xs)
	if s.N < 2 || s.Mean == 0 {
		return math.NaN()
	}
	return s.StdDev / math.Abs(s.Mean)
}
