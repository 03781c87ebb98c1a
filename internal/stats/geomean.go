package stats

import "math"

// GeometricMean is the geometric mean of the positive values of xs; NaN
// when there is none. A zero time (below the clock's resolution) cannot
// enter a geometric mean and is left out.
func GeometricMean(xs []float64) float64 {
	var sum float64
	n := 0
	for _, x := range xs {
		if x > 0 && !math.IsInf(x, 0) {
			sum += math.Log(x)
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return math.Exp(sum / float64(n))
}
