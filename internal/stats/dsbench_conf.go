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
// the convention of HDR histograms. NaN for no values.
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	k := int(math.Ceil(q*float64(len(sorted)))) - 1
	k = max(0, min(k, len(sorted)-1))
	return sorted[k]
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
