package stats

import (
	"math"
	"sort"
)

// SignedRankP is the two-sided p-value of the Wilcoxon signed-rank test of
// paired times a[i], b[i] on their log ratios log(a[i]/b[i]): how likely
// ranks this one-sided are when A and B do not differ, so that each
// pair's ratio is as likely above 1 as below. It is the paired
// counterpart of MannWhitneyP and keeps the paired bootstrap honest on a
// few pairs: 5 pairs that all favour B give p = 2/32, never below 0.05,
// while their bootstrap interval excludes 1; 6 pairs can reach 2/64.
//
// Pairs with equal times carry no sign and are left out (Wilcoxon's
// rule); tied magnitudes get mid-ranks. With at most signedRankExactN
// pairs left the p-value is exact (every assignment of signs counted),
// beyond that the normal approximation with the tie correction. 1 when no
// pair differs; NaN without pairs or with a time that is not positive.
func SignedRankP(a, b []float64) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return math.NaN()
	}
	var d []float64
	for i := range a {
		if !(a[i] > 0) || !(b[i] > 0) {
			return math.NaN()
		}
		if x := math.Log(a[i] / b[i]); x != 0 {
			d = append(d, x)
		}
	}
	if len(d) == 0 {
		return 1
	}
	mags := make([]float64, len(d))
	for i, x := range d {
		mags[i] = math.Abs(x)
	}
	// Mid-ranks of the magnitudes, doubled to stay integers: the pooled
	// ranking of MannWhitneyP with the magnitudes as the only sample.
	ranks2, _ := midRanks2(mags, nil)
	byValue := sortedIndex(mags)
	w2 := 0 // doubled sum of the ranks of the positive differences
	for k, i := range byValue {
		if d[i] > 0 {
			w2 += ranks2[k]
		}
	}
	if len(d) <= signedRankExactN {
		return exactSignedRankP(ranks2, w2)
	}
	return normalSignedRankP(ranks2, w2)
}

// signedRankExactN bounds the exact count (pairs x doubled rank sum
// steps: about 8 million at 200).
const signedRankExactN = 200

// sortedIndex is the indices of xs by increasing value: position k has
// the k-th smallest, whose mid-rank midRanks2 gives at k (tied values
// share theirs, so their order among themselves does not matter).
func sortedIndex(xs []float64) []int {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return xs[idx[i]] < xs[idx[j]] })
	return idx
}

// exactSignedRankP is 2 min(P(W <= w), P(W >= w)), at most 1, where W is
// the sum of the ranks (doubled) that get a + sign, each sign a fair coin.
func exactSignedRankP(ranks2 []int, w2 int) float64 {
	total := 0
	for _, r := range ranks2 {
		total += r
	}
	ways := make([]float64, total+1)
	ways[0] = 1
	for _, r := range ranks2 {
		for s := total - r; s >= 0; s-- {
			if ways[s] != 0 {
				ways[s+r] += ways[s]
			}
		}
	}
	return twoSidedP(ways, w2)
}

// normalSignedRankP is the normal approximation: W has mean (sum of
// ranks) / 2 and variance (sum of squared ranks) / 4, which with mid-ranks
// is the tie-corrected variance; a continuity correction of 1/2.
func normalSignedRankP(ranks2 []int, w2 int) float64 {
	var sum, sq float64
	for _, r := range ranks2 {
		x := float64(r) / 2
		sum += x
		sq += x * x
	}
	z := (math.Abs(float64(w2)/2-sum/2) - 0.5) / math.Sqrt(sq/4)
	if z < 0 {
		return 1
	}
	return math.Min(1, math.Erfc(z/math.Sqrt2))
}
