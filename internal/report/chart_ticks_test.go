package report

import (
	"slices"
	"testing"
)

// TestReadableTicks: the labels each axis gets, the case first
// (a log axis over data near 15000, which gonum labelled 20000 only).
func TestReadableTicks(t *testing.T) {
	for _, c := range []struct {
		name     string
		t        readableTicks
		min, max float64
		want     []string
	}{
		{"log, data near 15000", dataAxisTicks([]float64{14200, 15100, 15900}, true), 14200 / 1.4, 15900 * 1.4, []string{"12k", "14k", "14.5k", "15k", "15.5k", "16k", "18k", "20k", "22k"}},
		{"log, one value", dataAxisTicks([]float64{7133.5}, true), 7133.5 / 1.4, 7133.5 * 1.4, []string{"6k", "7k", "8k", "9k"}},
		{"log, under a decade", dataAxisTicks([]float64{524, 935}, true), 524 / 1.4, 935 * 1.4, []string{"400", "500", "600", "700", "800", "900", "1k"}},
		{"log, two decades", dataAxisTicks([]float64{0.3, 40}, true), 0.3 / 1.4, 40 * 1.4, []string{"0.5", "1", "2", "5", "10", "20", "50"}},
		{"log, five decades", dataAxisTicks([]float64{0.002, 300}, true), 0.002 / 1.4, 300 * 1.4, []string{"0.01", "0.1", "1", "10", "100"}},
		{"linear from 0", readableTicks{}, 0, 0.31, []string{"0", "0.1", "0.2", "0.3"}},
		{"linear, thousands", readableTicks{}, 0, 52000, []string{"0", "10k", "20k", "30k", "40k", "50k"}},
		{"linear, fine steps", dataAxisTicks([]float64{1040, 1070}, false), 1000, 1100, []string{"1000", "1020", "1040", "1060", "1080", "1100"}},
		{"linear, millions", readableTicks{}, 0, 3.1e6, []string{"0", "1M", "2M", "3M"}},
	} {
		var got []string
		for _, tk := range c.t.Ticks(c.min, c.max) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: labels %q, want %q", c.name, got, c.want)
		}
	}
}
