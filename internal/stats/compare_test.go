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
		// twice the time: ratio 22/11; limits 20/12 and 24/10. The
		// interval excludes 1, but 3 against 3 repetitions cannot make a
		// difference: the exact Mann-Whitney p-value is at least 2/20
		// (one split in C(6,3) = 20 as extreme on each side), so the row
		// is too few to judge, not "no significant difference".
		{"time doubled", []float64{10, 11, 12}, []float64{20, 22, 24}, SmallerIsBetter, 2, 20.0 / 12, 24.0 / 10, VerdictTooFew},
		{"rate doubled", []float64{10, 11, 12}, []float64{20, 22, 24}, BiggerIsBetter, 2, 20.0 / 12, 24.0 / 10, VerdictTooFew},
		// a quarter of the time, order of repetitions irrelevant
		{"time quartered", []float64{44, 40, 48}, []float64{11, 12, 10}, SmallerIsBetter, 11.0 / 44, 10.0 / 48, 12.0 / 40, VerdictTooFew},
		// the same sample: limits 9/11 and 11/9 straddle 1, yet 3 against
		// 3 could not have shown a difference either way
		{"same", []float64{9, 10, 11}, []float64{11, 9, 10}, SmallerIsBetter, 1, 9.0 / 11, 11.0 / 9, VerdictTooFew},
		// overlapping samples whose medians differ by 10%: the interval
		// [10/12, 12/10] includes 1
		{"overlap", []float64{10, 10, 12}, []float64{10, 11, 12}, SmallerIsBetter, 11.0 / 10, 10.0 / 12, 12.0 / 10, VerdictTooFew},
		// constant samples: a zero-width interval at 0.8, below 1, and
		// again p = 2/20
		{"constant faster", []float64{5, 5, 5}, []float64{4, 4, 4}, SmallerIsBetter, 0.8, 0.8, 0.8, VerdictTooFew},
		// 4 against 4 can differ (2/70 < 0.05): equal samples are then no
		// difference
		{"constant equal", []float64{5, 5, 5, 5}, []float64{5, 5, 5, 5}, BiggerIsBetter, 1, 1, 1, VerdictNoDiff},
		// four values: the median of a resample is 16 when at least three
		// of four draws are 16, probability 13/256 (5.1%) > 2.5%, so the
		// lower limit is 26/16; 10 likewise gives the upper 26/10; the
		// samples are apart, p = 2/C(8,4) = 2/70 < 0.05
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

// The smallest p-values are 2 / C(n1+n2, n1): C(6,3) = 20, C(7,3) = 35,
// C(8,4) = 70, C(8,3) = 56, C(10,5) = 252.
func TestSmallestRankSumP(t *testing.T) {
	for _, c := range []struct {
		n1, n2 int
		p      float64
		differ bool // at 0.95
	}{
		{3, 3, 2.0 / 20, false},
		{3, 4, 2.0 / 35, false},
		{4, 3, 2.0 / 35, false},
		{4, 4, 2.0 / 70, true},
		{3, 5, 2.0 / 56, true},
		{5, 5, 2.0 / 252, true},
		{2, 100, 2.0 / 5151, false}, // below MinCompareReps: no interval at all
		{0, 3, 1, false},
	} {
		if got := SmallestRankSumP(c.n1, c.n2); !near(got, c.p) {
			t.Errorf("SmallestRankSumP(%d, %d) = %v, want %v", c.n1, c.n2, got, c.p)
		}
		if got := CanDiffer(c.n1, c.n2, 0.95); got != c.differ {
			t.Errorf("CanDiffer(%d, %d, 0.95) = %v, want %v", c.n1, c.n2, got, c.differ)
		}
	}
}

// Rows whose interval excludes 1 but whose repetitions could never reach
// significance are too few to judge (issue: 3 against 3 read "no
// significant difference"); the interval is still given. 5 against 3 apart
// is a difference (p = 2/56).
func TestCompareRunsTooFewToJudge(t *testing.T) {
	few := CompareRuns([]float64{10, 11, 12}, []float64{20, 22, 24}, SmallerIsBetter, 0.95, DefaultResamples, DefaultBootstrapSeed)
	if few.Verdict != VerdictTooFew || !few.HasInterval() || !(few.Low > 1) {
		t.Errorf("3 against 3 apart: verdict %q interval [%v, %v], want %q with an interval above 1", few.Verdict, few.Low, few.High, VerdictTooFew)
	}
	enough := CompareRuns([]float64{10, 11, 12, 13, 14}, []float64{20, 22, 24}, SmallerIsBetter, 0.95, DefaultResamples, DefaultBootstrapSeed)
	if enough.Verdict != VerdictSlower || !near(enough.P, 2.0/56) {
		t.Errorf("5 against 3 apart: verdict %q p %v, want %q p %v", enough.Verdict, enough.P, VerdictSlower, 2.0/56)
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

// Five repetitions a side that do not overlap: p = 2/C(10,5) = 2/252, a
// difference whichever way the metric is better; with the same samples
// swapped, the other way.
func TestCompareRunsVerdictDirection(t *testing.T) {
	fast, slow := []float64{10, 11, 12, 13, 14}, []float64{20, 22, 24, 26, 28}
	cases := []struct {
		name        string
		base, other []float64
		better      Better
		verdict     string
	}{
		{"time doubled", fast, slow, SmallerIsBetter, VerdictSlower},
		{"time halved", slow, fast, SmallerIsBetter, VerdictFaster},
		{"rate doubled", fast, slow, BiggerIsBetter, VerdictFaster},
		{"rate halved", slow, fast, BiggerIsBetter, VerdictSlower},
	}
	for _, c := range cases {
		got := CompareRuns(c.base, c.other, c.better, 0.95, DefaultResamples, DefaultBootstrapSeed)
		if got.Verdict != c.verdict || !near(got.P, 2.0/252) || got.Q != got.P {
			t.Errorf("%s: verdict %q p %v q %v, want %q p %v", c.name, got.Verdict, got.P, got.Q, c.verdict, 2.0/252)
		}
	}
}

// One real difference among ten metrics at p = 2/252 is not enough once
// adjusted (q = 10 x 2/252 = 0.079); five of them are (q = 10/5 x 2/252).
func TestAdjustRunComparisons(t *testing.T) {
	fast, slow := []float64{10, 11, 12, 13, 14}, []float64{20, 22, 24, 26, 28}
	family := func(differ int) []*RunComparison {
		var cs []*RunComparison
		for i := 0; i < 10; i++ {
			other := fast
			if i < differ {
				other = slow
			}
			c := CompareRuns(fast, other, SmallerIsBetter, 0.95, DefaultResamples, DefaultBootstrapSeed)
			cs = append(cs, &c)
		}
		AdjustRunComparisons(cs)
		return cs
	}
	one := family(1)
	if one[0].Verdict != VerdictNoDiff || !near(one[0].Q, 10*2.0/252) {
		t.Errorf("one difference in ten: %q q %v, want no difference, q %v", one[0].Verdict, one[0].Q, 10*2.0/252)
	}
	five := family(5)
	for i, c := range five {
		want := VerdictNoDiff
		if i < 5 {
			want = VerdictSlower
		}
		if c.Verdict != want {
			t.Errorf("five differences in ten, metric %d: %q (q %v), want %q", i, c.Verdict, c.Q, want)
		}
	}
	if !near(five[0].Q, 2*2.0/252) || !near(five[9].Q, 1) {
		t.Errorf("q-values %v and %v, want %v and 1", five[0].Q, five[9].Q, 2*2.0/252)
	}
}
