package stats

import (
	"math"
	"testing"
)

func TestSpeedupsAgainstSmallestP(t *testing.T) {
	// T(1)=120, T(2)=64, T(4)=40: speedups 120/120, 120/64, 120/40.
	got, err := Speedups([]int{1, 2, 4}, []float64{120, 64, 40}, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 1.875, 3}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("p=%d: speedup %g, want %g", []int{1, 2, 4}[i], got[i], want[i])
		}
	}
	if e := Efficiency(got[2], 4, 1); math.Abs(e-0.75) > 1e-12 {
		t.Errorf("efficiency at p=4 = %g, want 0.75", e)
	}
}

func TestSpeedupsAgainstTwoProcessors(t *testing.T) {
	// Seed 003's joins: reference p=2. T(2)=90, T(4)=50, T(8)=30:
	// speedups 1, 1.8, 3; ideal 1, 2, 4; p=1 (100 ms) gets 0.9.
	got, err := Speedups([]int{1, 2, 4, 8}, []float64{100, 90, 50, 30}, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.9, 1, 1.8, 3}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("point %d: speedup %g, want %g", i, got[i], want[i])
		}
	}
	if id := IdealSpeedup(8, 2); id != 4 {
		t.Errorf("ideal speedup 8 vs 2 = %g, want 4", id)
	}
	if id := IdealSpeedup(1, 2); id != 0.5 {
		t.Errorf("ideal speedup 1 vs 2 = %g, want 0.5", id)
	}
}

func TestSpeedupsMissingPoints(t *testing.T) {
	got, err := Speedups([]int{1, 2}, []float64{10, math.NaN()}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(got[1]) {
		t.Errorf("a point without a time has speedup %g, want NaN", got[1])
	}
	if _, err := Speedups([]int{1, 2}, []float64{10, 5}, 4); err == nil {
		t.Error("a reference outside the list gave no error")
	}
	if _, err := Speedups([]int{1, 2}, []float64{0, 5}, 1); err == nil {
		t.Error("a reference with time 0 gave no error")
	}
	if _, err := Speedups([]int{1, 2}, []float64{1}, 1); err == nil {
		t.Error("lists of different lengths gave no error")
	}
}
