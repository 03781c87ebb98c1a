package stats

import (
	"math"
	"testing"
)

func TestBootstrapMedianCI(t *testing.T) {
	xs := []float64{150, 160, 140, 155, 150, 170, 145, 150, 165, 152}
	m := Median(xs)
	ci := BootstrapMedianCI(xs, 0.95, DefaultResamples, DefaultBootstrapSeed)
	if !(ci.Low <= m && m <= ci.High) {
		t.Fatalf("interval [%v, %v] does not contain the median %v", ci.Low, ci.High, m)
	}
	if ci.Low < 140 || ci.High > 170 || ci.Low >= ci.High {
		t.Errorf("interval [%v, %v] outside the sample's range or empty", ci.Low, ci.High)
	}
	again := BootstrapMedianCI(xs, 0.95, DefaultResamples, DefaultBootstrapSeed)
	if again != ci {
		t.Errorf("not reproducible: %+v then %+v", ci, again)
	}
	// A wider level cannot give a narrower interval from the same draws.
	wide := BootstrapMedianCI(xs, 0.99, DefaultResamples, DefaultBootstrapSeed)
	if wide.Low > ci.Low || wide.High < ci.High {
		t.Errorf("99%% interval %+v narrower than 95%% %+v", wide, ci)
	}
}

func TestBootstrapEdges(t *testing.T) {
	one := BootstrapMedianCI([]float64{7}, 0.95, 100, 1)
	if one.Low != 7 || one.High != 7 {
		t.Errorf("one value: %+v", one)
	}
	none := BootstrapMedianCI(nil, 0.95, 100, 1)
	if !math.IsNaN(none.Low) || !math.IsNaN(none.High) {
		t.Errorf("no values: %+v", none)
	}
	same := BootstrapMedianCI([]float64{3, 3, 3, 3}, 0.95, 100, 1)
	if same.Low != 3 || same.High != 3 {
		t.Errorf("constant sample: %+v", same)
	}
}

func TestRSD(t *testing.T) {
	// mean 2.5, sample sd sqrt(5/3)
	if r := RSD([]float64{1, 2, 3, 4}); !near(r, math.Sqrt(5.0/3)/2.5) {
		t.Errorf("rsd %v", r)
	}
	if r := RSD([]float64{5}); !math.IsNaN(r) {
		t.Errorf("one value: %v", r)
	}
	if r := RSD([]float64{-1, 1}); !math.IsNaN(r) {
		t.Errorf("zero mean: %v", r)
	}
}
