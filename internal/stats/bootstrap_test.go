package stats

import (
	"math"
	"math/rand/v2"
	"sort"
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

// The median's interval is BootstrapCI with Median to the last bit (odd
// and even counts, ties, one value drawn many times), and costs the same
// few allocations whatever the resamples: a stopped multiuser run
// summarises every repetition it measured before it can end, and a copy
// and a sort per resample made that take seconds. Allocations, not time,
// so the test holds on a busy machine.
func TestBootstrapMedianCIFast(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{2, 3, 4, 7, 10, 101, 500} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(rng.IntN(n/2+1)) * 0.25 // ties
		}
		for _, level := range []float64{0.9, 0.95} {
			got := BootstrapMedianCI(xs, level, 500, uint64(n))
			want := BootstrapCI(xs, Median, level, 500, uint64(n))
			if got != want {
				t.Errorf("n %d level %g: %+v, BootstrapCI gives %+v", n, level, got, want)
			}
		}
	}
	xs := make([]float64, 500)
	for i := range xs {
		xs[i] = rng.Float64()
	}
	allocs := testing.AllocsPerRun(3, func() { BootstrapMedianCI(xs, 0.95, DefaultResamples, DefaultBootstrapSeed) })
	if allocs > 20 {
		t.Errorf("%v allocations for %d resamples: one per resample or more", allocs, DefaultResamples)
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

// Nearest rank of the limits, by hand: the lower limit is the k-th smallest
// of n resampled values with k = ceil(n (1-level)/2), the upper the k-th with
// k = ceil(n (1+level)/2). For these n both products are whole numbers:
//
//	level  n=200     n=1000    n=2000      n=10000
//	90%    10, 190   50, 950   100, 1900   500, 9500
//	95%     5, 195   25, 975    50, 1950   250, 9750
//	99%     1, 199    5, 995    10, 1990    50, 9950
//
// In floating point (1-0.95)/2 is 0.025000000000000022 and (1-0.99)/2
// 0.0050000000000000044, so n times them is a few ulps above the integer and
// a bare ceiling took the next rank (6 for 5, 51 for 50, ...). The statistic
// here returns 1, 2, 3, ... on successive resamples, so the sorted resampled
// values are 1..n and each limit is its own rank.
func TestBootstrapNearestRank(t *testing.T) {
	want := map[float64]map[int][2]float64{
		0.90: {200: {10, 190}, 1000: {50, 950}, 2000: {100, 1900}, 10000: {500, 9500}},
		0.95: {200: {5, 195}, 1000: {25, 975}, 2000: {50, 1950}, 10000: {250, 9750}},
		0.99: {200: {1, 199}, 1000: {5, 995}, 2000: {10, 1990}, 10000: {50, 9950}},
	}
	for level, byN := range want {
		for n, lim := range byN {
			count := 0.0
			ci := BootstrapCI([]float64{1, 2}, func([]float64) float64 { count++; return count }, level, n, DefaultBootstrapSeed)
			if ci.Low != lim[0] || ci.High != lim[1] {
				t.Errorf("level %v, %d resamples: ranks %v, %v; want %v, %v", level, n, ci.Low, ci.High, lim[0], lim[1])
			}
			// TwoSampleRatioCI and PairedRatioCI take their limits the same
			// way: Quantile at (1-level)/2 and 1 - (1-level)/2.
			sorted := make([]float64, n)
			for i := range sorted {
				sorted[i] = float64(i + 1)
			}
			tail := (1 - level) / 2
			if lo, hi := Quantile(sorted, tail), Quantile(sorted, 1-tail); lo != lim[0] || hi != lim[1] {
				t.Errorf("level %v, n %d: Quantile ranks %v, %v; want %v, %v", level, n, lo, hi, lim[0], lim[1])
			}
		}
	}
}

// The brief's reproduction: the 95% bootstrap interval of the mean of
// 1, 2, 4, 8, 16, 32, 64 over 2000 resamples. Its lower limit is the
// ceil(2000 x 0.025) = 50th smallest resampled mean. Every resampled mean is
// an integer sum of seven values over 7; the independent check (scipy, exact
// arithmetic) found the 50th smallest to be 33/7 = 4.714 and the 51st 34/7 =
// 4.857, which the one-rank-high limit returned. The test re-derives the
// 50th and the 1950th smallest without Quantile: it replays the documented
// generator (PCG seeded with seed and the sample size, one IntN per value)
// and counts integer sums.
func TestBootstrapCIMeanRank50(t *testing.T) {
	xs := []float64{1, 2, 4, 8, 16, 32, 64}
	mean := func(s []float64) float64 {
		var sum float64
		for _, x := range s {
			sum += x
		}
		return sum / float64(len(s))
	}
	ci := BootstrapCI(xs, mean, 0.95, 2000, DefaultBootstrapSeed)

	rng := rand.New(rand.NewPCG(DefaultBootstrapSeed, uint64(len(xs))))
	sums := make([]int, 2000)
	for r := range sums {
		for range xs {
			sums[r] += int(xs[rng.IntN(len(xs))])
		}
	}
	sort.Ints(sums)
	if sums[49] != 33 || sums[50] != 34 {
		t.Fatalf("replayed draws: 50th and 51st smallest sums %d, %d; the independent check found 33, 34", sums[49], sums[50])
	}
	if ci.Low != 33.0/7 {
		t.Errorf("lower limit %v, want the 50th smallest mean 33/7 = %v", ci.Low, 33.0/7)
	}
	if hi := float64(sums[1949]) / 7; ci.High != hi {
		t.Errorf("upper limit %v, want the 1950th smallest mean %v", ci.High, hi)
	}
}
