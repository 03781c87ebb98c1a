// Package stats turns samples into values: summaries, growth fits and
// verdicts. It returns structs; renderers format them. It does no I/O.
package stats

import (
	"math"
	"sort"
)

// Summary describes a sample of measurements (milliseconds in dbgauge).
type Summary struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	Mean   float64 `json:"mean"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	StdDev float64 `json:"stddev"`
}

// Summarize computes the summary of xs (sample standard deviation, n-1).
func Summarize(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	out := Summary{N: len(s), Min: s[0], Max: s[len(s)-1], Median: Median(s)}
	var sum float64
	for _, x := range s {
		sum += x
	}
	out.Mean = sum / float64(len(s))
	if len(s) > 1 {
		var ss float64
		for _, x := range s {
			ss += (x - out.Mean) * (x - out.Mean)
		}
		out.StdDev = math.Sqrt(ss / float64(len(s)-1))
	}
	return out
}

// Median of xs (sorted or not).
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
