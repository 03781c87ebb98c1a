package stats

import (
	"math"
	"testing"
)

// Seed 004 Test 2, tables 1 and 2 (accelerator, clustered and non-clustered
// index), average access time in ms at the eight sizes.
var (
	idmSizes        = []float64{100, 1000, 5000, 10000, 25000, 50000, 100000, 150000}
	idmClustered    = []float64{128.75, 137.25, 170.50, 191.25, 178.75, 183, 195.75, 195.50}
	idmNonClustered = []float64{145.75, 150, 174.75, 191.50, 178.75, 212, 233, 195.50}
)

func within(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

func TestFitLineExact(t *testing.T) {
	f, err := FitLine([]float64{1, 2, 3, 4}, []float64{5, 8, 11, 14}) // 2 + 3x
	if err != nil {
		t.Fatal(err)
	}
	if !within(f.Slope, 3, 1e-12) || !within(f.Intercept, 2, 1e-12) || !within(f.R2, 1, 1e-12) || f.N != 4 {
		t.Errorf("fit %+v, want 2 + 3x with R^2 1", f)
	}
	if !within(f.At(10), 32, 1e-12) {
		t.Errorf("At(10) = %v, want 32", f.At(10))
	}
}

// (0,1), (1,3), (2,2): mean x 1, mean y 2, Sxy 1, Sxx 2, so slope 0.5 and
// intercept 1.5; residuals -0.5, 1, -0.5 give SSres 1.5 of SStot 2, R^2 0.25.
// A NaN point (a size that was not measured) is left out.
func TestFitLineByHand(t *testing.T) {
	f, err := FitLine([]float64{0, 1, 2, 7}, []float64{1, 3, 2, math.NaN()})
	if err != nil {
		t.Fatal(err)
	}
	if !within(f.Slope, 0.5, 1e-12) || !within(f.Intercept, 1.5, 1e-12) || !within(f.R2, 0.25, 1e-12) || f.N != 3 {
		t.Errorf("fit %+v, want 1.5 + 0.5x, R^2 0.25, 3 points", f)
	}
}

func TestFitLineRefuses(t *testing.T) {
	if _, err := FitLine([]float64{1, 2}, []float64{1, math.NaN()}); err == nil {
		t.Error("one measured point fitted")
	}
	if _, err := FitLine([]float64{3, 3}, []float64{1, 2}); err == nil {
		t.Error("equal sizes fitted")
	}
	if _, err := FitLine([]float64{1, 2}, []float64{1}); err == nil {
		t.Error("mismatched lengths fitted")
	}
}

// The seed's own figures: table 1 varies "only 52% (1.52 times as long)",
// 195.75 / 128.75; table 2 "1.59 times", 233 / 145.75.
func TestFlatSeedTables(t *testing.T) {
	f, err := Flat(idmSizes, idmClustered)
	if err != nil {
		t.Fatal(err)
	}
	if !within(f.Ratio, 195.75/128.75, 1e-12) || f.FastestSize != 100 || f.SlowestSize != 100000 || f.SlowestMS != 195.75 {
		t.Errorf("clustered flatness %+v, want 1.5204 from 100 to 100000", f)
	}
	if math.Round(f.Ratio*100)/100 != 1.52 {
		t.Errorf("ratio %v does not round to the seed's 1.52", f.Ratio)
	}
	g, _ := Flat(idmSizes, idmNonClustered)
	if !within(g.Ratio, 233/145.75, 1e-12) || g.SlowestSize != 100000 {
		t.Errorf("non-clustered flatness %+v, want 233/145.75", g)
	}
	h, err := Flat([]float64{1, 2, 3}, []float64{math.NaN(), 4, 2})
	if err != nil || h.Ratio != 2 || h.FastestSize != 3 {
		t.Errorf("with a missing size: %+v %v", h, err)
	}
	if _, err := Flat([]float64{1, 2}, []float64{0, 4}); err == nil {
		t.Error("flatness from one positive time")
	}
}

// Seed 004 Table 10 with the accelerator: per size 145.75/128.75 =
// 1.132040 (the seed's 100-tuple row), and the average 1.072790, which is
// the sum of table 2 (1481.25) over the sum of table 1 (1380.75).
func TestTimeRatiosSeedTable10(t *testing.T) {
	r, err := TimeRatios(idmNonClustered, idmClustered)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1.132040, 1.092896, 1.024927, 1.001307, 1, 1.158470, 1.190294, 1}
	for i, w := range want {
		if !within(r.PerSize[i], w, 5e-6) {
			t.Errorf("size %v: ratio %v, want %v", idmSizes[i], r.PerSize[i], w)
		}
	}
	if !within(r.RatioOfMeans, 1481.25/1380.75, 1e-12) || !within(r.RatioOfMeans, 1.072790, 5e-6) {
		t.Errorf("ratio of means %v, want the seed's 1.072790", r.RatioOfMeans)
	}
	var sum float64
	for _, w := range want {
		sum += w
	}
	if !within(r.MeanOfRatios, sum/8, 1e-5) {
		t.Errorf("mean of ratios %v, want %v", r.MeanOfRatios, sum/8)
	}
	if _, err := TimeRatios([]float64{1, 2}, []float64{1, 0}); err == nil {
		t.Error("a zero denominator was divided")
	}
	if _, err := TimeRatios([]float64{1, math.NaN()}, []float64{1, 1}); err == nil {
		t.Error("a missing time was divided")
	}
}

// Sizes 1..4 with times 10, 20, 30, 50: the line through the first three
// is 10x, which predicts 40 at size 4 where 50 was measured: -20%.
func TestPredictLargest(t *testing.T) {
	p, err := PredictLargest([]float64{4, 1, 2, 3}, []float64{50, 10, 20, 30})
	if err != nil {
		t.Fatal(err)
	}
	if p.Size != 4 || !within(p.PredictedMS, 40, 1e-9) || p.MeasuredMS != 50 || !within(p.ErrorPct, -20, 1e-9) || p.Fit.N != 3 {
		t.Errorf("prediction %+v, want 40 against 50 (-20%%) from 3 points", p)
	}
	if _, err := PredictLargest([]float64{1, 2}, []float64{1, 2}); err == nil {
		t.Error("predicted from one point")
	}
	if _, err := PredictLargest([]float64{1, 2, 3}, []float64{1, 2, math.NaN()}); err == nil {
		t.Error("compared with an unmeasured largest size")
	}
}

// The brief's reproduction: FitLine([1e8 .. 1e8+3], [1, 3, 5, 7]) is
// 2x - 199999999 exactly (see TestLinearFitLargeCloseX for the sums), and
// a constant time is the flat line with R^2 1.
func TestFitLineLargeSizesAndConstant(t *testing.T) {
	f, err := FitLine([]float64{1e8, 1e8 + 1, 1e8 + 2, 1e8 + 3}, []float64{1, 3, 5, 7})
	if err != nil {
		t.Fatal(err)
	}
	if !within(f.Slope, 2, 1e-12) || !within(f.R2, 1, 1e-12) || !within(f.At(1e8+10), 21, 1e-6) {
		t.Errorf("fit %+v, want slope 2, R^2 1, 21 at 1e8+10", f)
	}
	f, err = FitLine([]float64{1, 2, 3, 4}, []float64{0.3, 0.3, math.NaN(), 0.3})
	if err != nil {
		t.Fatal(err)
	}
	if f.Slope != 0 || f.Intercept != 0.3 || f.R2 != 1 || f.N != 3 {
		t.Errorf("constant fit %+v, want 0.3 + 0x with R^2 1 over 3 points", f)
	}
	// TestPredictLargest moved to sizes 1e8+1 .. 1e8+4: the line through
	// the first three is still 10 ms per unit of size, so it predicts 40
	// at the largest where 50 was measured, -20%.
	p, err := PredictLargest([]float64{1e8 + 4, 1e8 + 1, 1e8 + 2, 1e8 + 3}, []float64{50, 10, 20, 30})
	if err != nil {
		t.Fatal(err)
	}
	if !within(p.PredictedMS, 40, 1e-6) || !within(p.ErrorPct, -20, 1e-6) || !within(p.Fit.R2, 1, 1e-12) {
		t.Errorf("prediction %+v, want 40 against 50 (-20%%), R^2 1", p)
	}
}
