package stats

import (
	"fmt"
	"math"
)

// Speedup arithmetic (seed 003 §5.2, §6.2): the response time at a
// reference degree of parallelism divided by the response time at p. The
// ideal (linear) speedup is p / p_ref: seed 003 drew it beside every curve,
// and plotted its joins against 2 processors rather than 1 so that the
// single processor's short-circuited messages do not flatter it.

// Speedups returns T(ref)/T(p) for every p in ps, with times[i] the
// response time at ps[i]. ref must be one of ps and its time positive; a
// non-positive or NaN time at another p gives NaN there (a point that was
// not measured has no speedup).
func Speedups(ps []int, times []float64, ref int) ([]float64, error) {
	if len(ps) != len(times) {
		return nil, fmt.Errorf("speedup: %d degrees of parallelism but %d times", len(ps), len(times))
	}
	refT := math.NaN()
	for i, p := range ps {
		if p == ref {
			refT = times[i]
		}
	}
	if math.IsNaN(refT) {
		return nil, fmt.Errorf("speedup: the reference p=%d has no time", ref)
	}
	if refT <= 0 {
		return nil, fmt.Errorf("speedup: the reference p=%d has time %g, not positive", ref, refT)
	}
	out := make([]float64, len(ps))
	for i, t := range times {
		if t > 0 {
			out[i] = refT / t
		} else {
			out[i] = math.NaN()
		}
	}
	return out, nil
}

// IdealSpeedup is the linear speedup p / ref.
func IdealSpeedup(p, ref int) float64 {
	return float64(p) / float64(ref)
}

// Efficiency is the speedup as a fraction of the ideal: 1 is linear.
func Efficiency(speedup float64, p, ref int) float64 {
	return speedup / IdealSpeedup(p, ref)
}
