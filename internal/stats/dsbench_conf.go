package stats

import (
	"fmt"
	"math"
	"sort"
	"strconv"
)

// Rates at confidence levels, seed 001 §4.1.5 (columns 13-18 of Table 1).
//
// Reading of the seed: the conf diagram is "derived from the cumulative
// frequency diagram" and converts a residence time to a rate "by means of
// the transaction rate factor f" (eq. 11). Its example, "the curve labelled
// 95 % shows 500 tps at scale 50: 95 % of all transactions achieve 500 tps",
// reads as: 95 % of the transactions are at least as fast as the 0.95
// quantile q of the residence times, and a system whose every transaction
// took q would run at f / q. This is eq. 10 with the mean residence time
// R = 1/T^r replaced by a quantile: T = f x T^r = f / R. So the rate at
// level p is f / q_p, it falls as p rises (as the seed's curves do), and at
// a quantile equal to the mean residence time it equals T.

// LevelKey is how a confidence level in percent is written as a key of
// results.ScaleResult.ConfidenceTPS: "50", "68", "99.7".
func LevelKey(percent float64) string { return strconv.FormatFloat(percent, 'f', -1, 64) }

// ConfidenceRate is f / q: the rate at the confidence level whose quantile of
// the residence times is q seconds. NaN when q is not positive.
func ConfidenceRate(f, quantileS float64) float64 {
	if !(quantileS > 0) {
		return math.NaN()
	}
	return f / quantileS
}

// ConfidenceRates maps LevelKey(level) to f / quantileS(level/100) for each
// level in percent. quantileS returns the residence-time quantile in seconds
// (an HDR histogram's ValueAtQuantile, Quantile on raw times, or
// QuantileFromPoints).
func ConfidenceRates(f float64, levels []float64, quantileS func(q float64) float64) (map[string]float64, error) {
	out := make(map[string]float64, len(levels))
	for _, l := range levels {
		if !(l > 0 && l < 100) {
			return nil, fmt.Errorf("confidence level %v%%: need 0 < level < 100", l)
		}
		out[LevelKey(l)] = ConfidenceRate(f, quantileS(l/100))
	}
	return out, nil
}

// Quantile is the q-quantile (0..1) of sorted values by nearest rank: the
// smallest value with at least a fraction q of the values at or below it,
// the convention of HDR histograms: the value of rank nearestRank(q, n).
// NaN for no values.
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	return sorted[nearestRank(q, len(sorted))-1]
}

// rankSlack bounds, per value, how far q*n may sit from a whole number and
// still be taken for it: 16 machine epsilons (about 3.6e-15) times n.
const rankSlack = 16 * 0x1p-52

// nearestRank is the 1-based rank ceil(q n) of the q-quantile of n values,
// kept within 1..n.
//
// The q that callers pass are computed, not typed: (1-0.95)/2 is
// 0.025000000000000022 in binary, 1 - that is 0.97499999999999998, and 68/100
// and 99.9/100 are also off by an ulp. Each is within a few ulps of 1 (about
// 2.2e-16) of the intended fraction, so q*n is within a few times 2.2e-16 x n
// of the intended product. Where that product is a whole number (0.025 x 2000
// = 50, 0.68 x 75 = 51), a bare ceiling of 50.00000000000004 took rank 51, one
// too high (a product an ulp below, 99.99999999999997 at 90%, came out right
// only because the error happened to fall that way). So a product within
// rankSlack x n of a whole number is taken to be that number before the
// ceiling. A q that truly differs from k/n by less than 16 epsilons (3.6e-15)
// cannot be told from k/n in float64 anyway, and no level a user writes does.
func nearestRank(q float64, n int) int {
	if n <= 0 {
		return 0
	}
	p := q * float64(n)
	if r := math.Round(p); math.Abs(p-r) <= rankSlack*float64(n) {
		p = r
	}
	k := int(math.Ceil(p))
	return max(1, min(k, n))
}

// QuantilePoint is one (quantile, value) point of a stored distribution, as
// results.QuantilePoint holds it (same fields: convert one into the other).
type QuantilePoint struct {
	Quantile float64
	Micros   float64
}

// QuantileFromPoints interpolates the q-quantile linearly between stored
// points (in any order); outside them it returns the nearest end. NaN for no
// points.
func QuantileFromPoints(points []QuantilePoint, q float64) float64 {
	if len(points) == 0 {
		return math.NaN()
	}
	p := append([]QuantilePoint(nil), points...)
	sort.Slice(p, func(a, b int) bool { return p[a].Quantile < p[b].Quantile })
	if q <= p[0].Quantile {
		return p[0].Micros
	}
	for i := 1; i < len(p); i++ {
		if q <= p[i].Quantile {
			a, b := p[i-1], p[i]
			if b.Quantile == a.Quantile {
				return b.Micros
			}
			return a.Micros + (b.Micros-a.Micros)*(q-a.Quantile)/(b.Quantile-a.Quantile)
		}
	}
	return p[len(p)-1].Micros
}
