package stats

import (
	"fmt"
	"math"
)

// Retrieval time against relation size (seed 004 Test 2, seed 003 §5.1):
// a straight line for scans, a flatness ratio for indexed access, the
// non-clustered/clustered ratio (seed 004 Table 10) and the prediction of
// the largest size from the smaller ones (seed 004's "scale model").

// LineFit is time = Intercept + Slope x size, fitted by least squares
// (LinearFit: centred sums). R2 is the coefficient of determination, 1 when
// every point is on the line, including when all times are equal (the flat
// line fits them exactly).
type LineFit struct {
	Intercept float64 `json:"intercept"`
	Slope     float64 `json:"slope"`
	R2        float64 `json:"r2"`
	N         int     `json:"n"` // points fitted
}

// At is the fitted time at size x.
func (f LineFit) At(x float64) float64 { return f.Intercept + f.Slope*x }

// FitLine fits ys against xs. Points whose y is NaN (not measured) are
// left out; at least two distinct xs must remain. Equal times give the flat
// line through them with R2 1.
func FitLine(xs, ys []float64) (LineFit, error) {
	if len(xs) != len(ys) {
		return LineFit{}, fmt.Errorf("line fit: %d sizes but %d times", len(xs), len(ys))
	}
	var fx, fy []float64
	for i := range xs {
		if !math.IsNaN(ys[i]) && !math.IsInf(ys[i], 0) {
			fx, fy = append(fx, xs[i]), append(fy, ys[i])
		}
	}
	if len(fx) < 2 {
		return LineFit{}, fmt.Errorf("line fit: needs two measured sizes, has %d", len(fx))
	}
	slope, intercept, r2 := LinearFit(fx, fy)
	if math.IsNaN(slope) {
		return LineFit{}, fmt.Errorf("line fit: all %d sizes are equal", len(fx))
	}
	return LineFit{Intercept: intercept, Slope: slope, R2: r2, N: len(fx)}, nil
}

// Flatness is how little an indexed retrieve's time moves with size: the
// slowest size's time over the fastest's (seed 004: "the difference between
// the fastest and slowest query is only 52% (1.52 times as long)").
type Flatness struct {
	Ratio       float64 `json:"ratio"`
	FastestSize float64 `json:"fastest_size"`
	FastestMS   float64 `json:"fastest_ms"`
	SlowestSize float64 `json:"slowest_size"`
	SlowestMS   float64 `json:"slowest_ms"`
}

// Flat finds the fastest and slowest of the measured (not NaN, positive)
// times; it needs two of them.
func Flat(xs, ys []float64) (Flatness, error) {
	if len(xs) != len(ys) {
		return Flatness{}, fmt.Errorf("flatness: %d sizes but %d times", len(xs), len(ys))
	}
	f := Flatness{FastestMS: math.Inf(1), SlowestMS: math.Inf(-1)}
	n := 0
	for i, y := range ys {
		if math.IsNaN(y) || math.IsInf(y, 0) || y <= 0 {
			continue
		}
		n++
		if y < f.FastestMS {
			f.FastestMS, f.FastestSize = y, xs[i]
		}
		if y > f.SlowestMS {
			f.SlowestMS, f.SlowestSize = y, xs[i]
		}
	}
	if n < 2 {
		return Flatness{}, fmt.Errorf("flatness: needs two sizes with positive times, has %d", n)
	}
	f.Ratio = f.SlowestMS / f.FastestMS
	return f, nil
}

// Ratios is one access method's time over another's, size by size, and
// on average in two ways. RatioOfMeans (the sum of the numerator's times
// over the sum of the denominator's, the ratio of the mean times) is what
// seed 004 Table 10 calls the "average increase": its 1.072790 with the
// accelerator is exactly Table 2's total over Table 1's. MeanOfRatios is
// the plain mean of the per-size ratios; small sizes weigh in it as much
// as large ones.
type Ratios struct {
	PerSize      []float64 `json:"per_size"`
	MeanOfRatios float64   `json:"mean_of_ratios"`
	RatioOfMeans float64   `json:"ratio_of_means"`
}

// TimeRatios divides num by den size by size; every pair must be measured
// (not NaN) with a positive denominator.
func TimeRatios(num, den []float64) (Ratios, error) {
	if len(num) != len(den) || len(num) == 0 {
		return Ratios{}, fmt.Errorf("ratios: %d against %d times", len(num), len(den))
	}
	var r Ratios
	var sn, sd, sr float64
	for i := range num {
		if math.IsNaN(num[i]) || math.IsNaN(den[i]) || den[i] <= 0 {
			return Ratios{}, fmt.Errorf("ratios: size %d has no usable pair (%v / %v)", i, num[i], den[i])
		}
		q := num[i] / den[i]
		r.PerSize = append(r.PerSize, q)
		sn, sd, sr = sn+num[i], sd+den[i], sr+q
	}
	r.MeanOfRatios = sr / float64(len(num))
	r.RatioOfMeans = sn / sd
	return r, nil
}

// Prediction is the scale-model check: a line fitted on every size but the
// largest, extrapolated to the largest and compared with what was measured
// there. ErrorPct = (predicted - measured) / measured x 100: negative when
// the smaller sizes promised less time than the large one took.
type Prediction struct {
	Fit         LineFit `json:"fit"`
	Size        float64 `json:"size"`
	PredictedMS float64 `json:"predicted_ms"`
	MeasuredMS  float64 `json:"measured_ms"`
	ErrorPct    float64 `json:"error_pct"`
}

// PredictLargest fits on all points but the one with the largest x and
// predicts that one. It needs two points to fit and a positive measured
// time at the largest size.
func PredictLargest(xs, ys []float64) (Prediction, error) {
	if len(xs) != len(ys) {
		return Prediction{}, fmt.Errorf("prediction: %d sizes but %d times", len(xs), len(ys))
	}
	if len(xs) < 3 {
		return Prediction{}, fmt.Errorf("prediction: needs three sizes (two to fit, one to predict), has %d", len(xs))
	}
	last := 0
	for i, x := range xs {
		if x > xs[last] {
			last = i
		}
	}
	var fx, fy []float64
	for i := range xs {
		if i != last {
			fx, fy = append(fx, xs[i]), append(fy, ys[i])
		}
	}
	fit, err := FitLine(fx, fy)
	if err != nil {
		return Prediction{}, fmt.Errorf("prediction: %w", err)
	}
	m := ys[last]
	if math.IsNaN(m) || m <= 0 {
		return Prediction{}, fmt.Errorf("prediction: the largest size %v has no measured time", xs[last])
	}
	p := Prediction{Fit: fit, Size: xs[last], PredictedMS: fit.At(xs[last]), MeasuredMS: m}
	p.ErrorPct = (p.PredictedMS - m) / m * 100
	return p, nil
}
