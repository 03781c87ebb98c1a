package stats

import (
	"math"

	"github.com/aclements/go-moremath/mathx"
)

// Mix is Pearson's chi-square test of a load's transaction types against
// the weights they were drawn with: whether the counts could come from
// draws in those proportions.
type Mix struct {
	// ChiSquare is sum (observed - expected)^2 / expected over the types
	// of a weight above zero; DF its degrees of freedom (those types less
	// one); P the chance of a statistic at least as large if the draws
	// follow the weights.
	ChiSquare float64
	DF        int
	P         float64
}

// MixTest tests counts against weights (the same order). ok is false when
// there is nothing to test: fewer than two weighted types, or no count.
// A count of a type of weight zero makes P zero: such a type is never
// drawn.
func MixTest(counts []int64, weights []int) (m Mix, ok bool) {
	if len(counts) != len(weights) {
		return Mix{}, false
	}
	var n, w int64
	for i, c := range counts {
		n += c
		w += int64(max(weights[i], 0))
	}
	if n == 0 || w == 0 {
		return Mix{}, false
	}
	for i, c := range counts {
		if weights[i] <= 0 {
			if c > 0 {
				return Mix{ChiSquare: math.Inf(1), DF: 1, P: 0}, true
			}
			continue
		}
		e := float64(n) * float64(weights[i]) / float64(w)
		d := float64(c) - e
		m.ChiSquare += d * d / e
		m.DF++
	}
	if m.DF--; m.DF < 1 {
		return Mix{}, false
	}
	m.P = chiSquareP(m.ChiSquare, m.DF)
	return m, true
}

// chiSquareP is the chance of a chi-square statistic of df degrees of
// freedom at least x: the regularised upper incomplete gamma function.
func chiSquareP(x float64, df int) float64 {
	if x <= 0 {
		return 1
	}
	return mathx.GammaIncComp(float64(df)/2, x/2)
}
