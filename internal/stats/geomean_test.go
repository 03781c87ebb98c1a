package stats

import (
	"math"
	"testing"
)

func TestGeometricMean(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{1, 4, 16}, 4},
		{[]float64{2, 8}, 4},
		{[]float64{2, 8, 0}, 4}, // a zero time cannot enter it
		{[]float64{5}, 5},
	} {
		if got := GeometricMean(c.xs); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("GeometricMean(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
	if !math.IsNaN(GeometricMean(nil)) {
		t.Error("GeometricMean of nothing is a number")
	}
}
