package stats

import (
	"math"
	"math/rand/v2"
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

// BootstrapMedianCI is the percentile bootstrap interval of the median.
func BootstrapMedianCI(xs []float64, level float64, resamples int, seed uint64) Interval {
	return BootstrapCI(xs, Median, level, resamples, seed)
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
