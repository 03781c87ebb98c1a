package stats

import (
	"math"
	"testing"
)

// The intervals below are worked out by hand. A resample of three values
// has median v with probability P(at least two of three draws are <= v)
// minus the same for the value below: for {10, 11, 12} that is 7/27 for
// 10, 13/27 for 11 and 7/27 for 12. The smallest ratio other*/base* needs
// the smallest median of other and the largest of base: probability
// (7/27)^2 = 49/729, about 6.7%, well above the 2.5% tail, so with 2000
// resamples the 2.5% limit is exactly that smallest ratio (about 134 of
// them against the 50 the nearest rank needs), and likewise at the top.
func TestCompareRunsHandComputed(t *testing.T) {
	cases := []struct {
		name        string
		base, other []float64
		better      Better
		ratio       float64
		low, high   float64 // NaN: no interval
		verdict     string
	}{
		// twice the time: ratio 22/11; limits 20/12 and 24/10
		{"time doubled", []float64{10, 11, 12}, []float64{20, 22, 24}, SmallerIsBetter, 2, 20.0 / 12, 24.0 / 10, VerdictSlower},
		// the same numbers as rates: twice the tps is faster
		{"rate doubled", []float64{10, 11, 12}, []float64{20, 22, 24}, BiggerIsBetter, 2, 20.0 / 12, 24.0 / 10, VerdictFaster},
		// a quarter of the time, order of repetitions irrelevant
		{"time quartered", []float64{44, 40, 48}, []float64{11, 12, 10}, SmallerIsBetter, 11.0 / 44, 10.0 / 48, 12.0 / 40, VerdictFaster},
		// the same sample: limits 9/11 and 11/9 straddle 1
		{"same", []float64{9, 10, 11}, []float64{11, 9, 10}, SmallerIsBetter, 1, 9.0 / 11, 11.0 / 9, VerdictNoDiff},
		// overlapping samples whose medians differ by 10%: the interval
		// [10/12, 12/10] still includes 1
		{"overlap", []float64{10, 10, 12}, []float64{10, 11, 12}, SmallerIsBetter, 11.0 / 10, 10.0 / 12, 12.0 / 10, VerdictNoDiff},
		// constant samples: a zero-width interval at 0.8, below 1
		{"constant faster", []float64{5, 5, 5}, []float64{4, 4, 4}, SmallerIsBetter, 0.8, 0.8, 0.8, VerdictFaster},
		{"constant equal", []float64{5, 5, 5}, []float64{5, 5, 5}, BiggerIsBetter, 1, 1, 1, VerdictNoDiff},
		// four values: the median of a resample is 16 when at least three
		// of four draws are 16, probability 13/256 (5.1%) > 2.5%, so the
		// lower limit is 26/16; 10 likewise gives the upper 26/10
		{"even sizes", []float64{10, 12, 14, 16}, []float64{26, 26, 26, 26}, SmallerIsBetter, 2, 26.0 / 16, 26.0 / 10, VerdictSlower},
		// fewer than three repetitions: the ratio without an interval
		{"two reps", []float64{10, 12}, []float64{20, 22, 24}, SmallerIsBetter, 2, math.NaN(), math.NaN(), VerdictTooFew},
		{"one rep", []float64{10, 11, 12}, []float64{33}, BiggerIsBetter, 3, math.NaN(), math.NaN(), VerdictTooFew},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := CompareRuns(c.base, c.other, c.better, 0.95, DefaultResamples, DefaultBootstrapSeed)
			if !near(got.Ratio, c.ratio) {
				t.Errorf("ratio %v, want %v", got.Ratio, c.ratio)
			}
			if math.IsNaN(c.low) {
				if got.HasInterval() {
					t.Errorf("interval [%v, %v], want none", got.Low, got.High)
				}
			} else if !near(got.Low, c.low) || !near(got.High, c.high) {
				t.Errorf("interval [%v, %v], want [%v, %v]", got.Low, got.High, c.low, c.high)
			}
			if got.Verdict != c.verdict {
				t.Errorf("verdict %q, want %q", got.Verdict, c.verdict)
			}
			if got.NBase != len(c.base) || got.NOther != len(c.other) || !near(got.MedianBase, Median(c.base)) || !near(got.MedianOther, Median(c.other)) {
				t.Errorf("counts or medians %+v", got)
			}
		})
	}
}

func TestCompareRunsNotComparable(t *testing.T) {
	for _, c := range []struct {
		name        string
		base, other []float64
		ratio       bool // a ratio is still given
	}{
		{"no baseline", nil, []float64{1, 2, 3}, false},
		{"no other", []float64{1, 2, 3}, nil, false},
		{"baseline median zero", []float64{0, 0, 5}, []float64{1, 2, 3}, false},
		// a failed cycle of zero tps: the medians have a ratio, but a
		// resample of zeros would have none, so no interval is made up
		{"a zero repetition", []float64{0, 4, 5}, []float64{1, 2, 3}, true},
	} {
		got := CompareRuns(c.base, c.other, BiggerIsBetter, 0.95, 200, 1)
		if got.Verdict != VerdictNotComparable || got.Reason == "" || got.HasInterval() {
			t.Errorf("%s: %+v", c.name, got)
		}
		if math.IsNaN(got.Ratio) == c.ratio {
			t.Errorf("%s: ratio %v", c.name, got.Ratio)
		}
	}
}

func TestTwoSampleRatioCI(t *testing.T) {
	base := []float64{100, 104, 97, 110, 101, 99, 103}
	other := []float64{80, 84, 79, 90, 81, 85, 83}
	ci := TwoSampleRatioCI(base, other, 0.95, DefaultResamples, DefaultBootstrapSeed)
	if r := Median(other) / Median(base); !(ci.Low <= r && r <= ci.High) || ci.Low < 79.0/110 || ci.High > 90.0/97 {
		t.Errorf("interval %+v around ratio %v", ci, r)
	}
	if again := TwoSampleRatioCI(base, other, 0.95, DefaultResamples, DefaultBootstrapSeed); again != ci {
		t.Errorf("not reproducible: %+v then %+v", ci, again)
	}
	if wide := TwoSampleRatioCI(base, other, 0.99, DefaultResamples, DefaultBootstrapSeed); wide.Low > ci.Low || wide.High < ci.High {
		t.Errorf("99%% interval %+v narrower than 95%% %+v", wide, ci)
	}
	if none := TwoSampleRatioCI(nil, other, 0.95, 100, 1); !math.IsNaN(none.Low) || !math.IsNaN(none.High) {
		t.Errorf("no baseline: %+v", none)
	}
}

func TestCompareVerdict(t *testing.T) {
	for _, c := range []struct {
		low, high float64
		better    Better
		want      string
	}{
		{1.1, 1.3, BiggerIsBetter, VerdictFaster},
		{1.1, 1.3, SmallerIsBetter, VerdictSlower},
		{0.5, 0.9, BiggerIsBetter, VerdictSlower},
		{0.5, 0.9, SmallerIsBetter, VerdictFaster},
		{0.9, 1.1, SmallerIsBetter, VerdictNoDiff},
		{1, 1.2, SmallerIsBetter, VerdictNoDiff}, // touching 1 is including it
		{0.8, 1, BiggerIsBetter, VerdictNoDiff},
		{math.NaN(), math.NaN(), BiggerIsBetter, VerdictTooFew},
	} {
		if got := CompareVerdict(c.low, c.high, c.better); got != c.want {
			t.Errorf("[%v, %v] better %v: %q, want %q", c.low, c.high, c.better, got, c.want)
		}
	}
}
