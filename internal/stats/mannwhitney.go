package stats

import (
	"math"
	"sort"
)

// MannWhitneyP is the two-sided p-value of the Mann-Whitney U test (the
// Wilcoxon rank-sum test) of xs against ys: how likely a difference in
// ranks at least this large is when both samples come from one
// distribution. It is the test benchstat uses, and it is what keeps a
// bootstrap interval from small samples honest: with 3 values a side the
// percentile interval excludes 1 whenever the samples do not overlap,
// which happens 1 time in 10 by chance, while the exact test's smallest
// p-value for 3 against 3 is 0.1, so it never calls that a difference.
//
// With at most exactMaxN values in all the p-value is exact: the
// distribution of the rank sum over every split of the pooled mid-ranks
// (ties included) is counted. Larger samples use the normal approximation
// with the tie correction and a continuity correction. NaN when either
// sample is empty.
func MannWhitneyP(xs, ys []float64) float64 {
	if len(xs) == 0 || len(ys) == 0 {
		return math.NaN()
	}
	ranks2, r1x2 := midRanks2(xs, ys)
	if len(ranks2) <= exactMaxN {
		return exactRankSumP(ranks2, len(xs), r1x2)
	}
	n1 := float64(len(xs))
	return normalUP(xs, ys, float64(r1x2)/2-n1*(n1+1)/2)
}

// exactMaxN bounds the exact count: len(xs) x sum of ranks counts per
// pooled value, about 2 million steps at 100.
const exactMaxN = 100

// midRanks2 are twice the mid-ranks of the pooled values (integers: a tie
// over ranks i+1..j has mid-rank (i+j+1)/2), and twice the rank sum of xs.
func midRanks2(xs, ys []float64) (ranks2 []int, r1x2 int) {
	type v struct {
		x     float64
		first bool
	}
	all := make([]v, 0, len(xs)+len(ys))
	for _, x := range xs {
		all = append(all, v{x, true})
	}
	for _, y := range ys {
		all = append(all, v{y, false})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].x < all[j].x })
	ranks2 = make([]int, len(all))
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].x == all[i].x {
			j++
		}
		for k := i; k < j; k++ {
			ranks2[k] = i + j + 1
			if all[k].first {
				r1x2 += i + j + 1
			}
		}
		i = j
	}
	return ranks2, r1x2
}

// exactRankSumP is the exact two-sided p-value of the rank sum (doubled)
// r1x2 of n1 values drawn from the pooled doubled ranks ranks2: 2 min(P(R
// <= r1x2), P(R >= r1x2)) over all splits, equally likely under the null
// hypothesis, at most 1.
func exactRankSumP(ranks2 []int, n1, r1x2 int) float64 {
	total := 0
	for _, r := range ranks2 {
		total += r
	}
	// ways[k][s]: subsets of k of the values seen so far whose doubled
	// ranks sum to s.
	ways := make([][]float64, n1+1)
	for k := range ways {
		ways[k] = make([]float64, total+1)
	}
	ways[0][0] = 1
	for i, r := range ranks2 {
		for k := min(i+1, n1); k >= 1; k-- {
			from, to := ways[k-1], ways[k]
			for s := total - r; s >= 0; s-- {
				if from[s] != 0 {
					to[s+r] += from[s]
				}
			}
		}
	}
	return twoSidedP(ways[n1], r1x2)
}

// twoSidedP is the two-sided p-value of the statistic's value observed
// under the null distribution counted in ways (ways[s]: the number of
// equally likely outcomes with statistic s): 2 min(P(S <= observed),
// P(S >= observed)), at most 1.
func twoSidedP(ways []float64, observed int) float64 {
	var all, le, ge float64
	for s, w := range ways {
		all += w
		if s <= observed {
			le += w
		}
		if s >= observed {
			ge += w
		}
	}
	return math.Min(1, 2*math.Min(le, ge)/all)
}

// normalUP is the normal approximation's two-sided p-value of U = u, with
// the variance corrected for ties and a continuity correction of 1/2.
func normalUP(xs, ys []float64, u float64) float64 {
	n1, n2 := float64(len(xs)), float64(len(ys))
	n := n1 + n2
	counts := map[float64]float64{}
	for _, x := range xs {
		counts[x]++
	}
	for _, y := range ys {
		counts[y]++
	}
	tieSum := 0.0
	for _, t := range counts {
		tieSum += t*t*t - t
	}
	variance := n1 * n2 / 12 * ((n + 1) - tieSum/(n*(n-1)))
	if !(variance > 0) {
		return 1 // every value equal: no evidence of a difference
	}
	z := (math.Abs(u-n1*n2/2) - 0.5) / math.Sqrt(variance)
	if z < 0 {
		return 1
	}
	return math.Min(1, math.Erfc(z/math.Sqrt2))
}

// AdjustBH returns the Benjamini-Hochberg adjusted p-values (q-values) of
// ps, in the same order: a metric is a discovery at false discovery rate
// alpha when its q-value is below alpha. It keeps the share of false
// "faster"/"slower" verdicts among all such verdicts of a comparison near
// alpha however many metrics the page compares. NaN p-values (no test)
// stay NaN and do not count.
func AdjustBH(ps []float64) []float64 {
	out := make([]float64, len(ps))
	idx := []int{}
	for i, p := range ps {
		out[i] = math.NaN()
		if !math.IsNaN(p) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return ps[idx[a]] < ps[idx[b]] })
	m := float64(len(idx))
	prev := 1.0
	for r := len(idx) - 1; r >= 0; r-- {
		q := math.Min(prev, ps[idx[r]]*m/float64(r+1))
		out[idx[r]] = q
		prev = q
	}
	return out
}
