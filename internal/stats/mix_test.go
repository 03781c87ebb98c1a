package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMixTest: the statistic and p of known cases (the p of chi-square
// 3.841 with 1 degree of freedom is 0.05, of 5.991 with 2 is 0.05), counts
// drawn by weight pass, counts drawn by other weights fail, and the cases
// with nothing to test say so.
func TestMixTest(t *testing.T) {
	m, ok := MixTest([]int64{60, 40}, []int{1, 1})
	if !ok || m.DF != 1 || math.Abs(m.ChiSquare-4) > 1e-12 {
		t.Errorf("60/40 against 1:1: %+v %v, want chi-square 4 with 1 df", m, ok)
	}
	for _, c := range []struct {
		x    float64
		df   int
		want float64
	}{{3.841459, 1, 0.05}, {5.991465, 2, 0.05}, {0, 3, 1}} {
		if got := chiSquareP(c.x, c.df); math.Abs(got-c.want) > 1e-5 {
			t.Errorf("p of %g with %d df = %g, want %g", c.x, c.df, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	draw := func(weights []int, n int) []int64 {
		out := make([]int64, len(weights))
		total := 0
		for _, w := range weights {
			total += w
		}
		for range n {
			x := r.IntN(total)
			for i, w := range weights {
				if x < w {
					out[i]++
					break
				}
				x -= w
			}
		}
		return out
	}
	if m, ok := MixTest(draw([]int{5, 3, 2}, 100000), []int{5, 3, 2}); !ok || m.P < 0.001 {
		t.Errorf("draws by the weights: %+v", m)
	}
	if m, ok := MixTest(draw([]int{50, 31, 19}, 100000), []int{5, 3, 2}); !ok || m.P >= 0.001 {
		t.Errorf("draws by other weights pass: %+v", m)
	}
	if _, ok := MixTest([]int64{10}, []int{1}); ok {
		t.Error("one type tested")
	}
	if _, ok := MixTest([]int64{0, 0}, []int{1, 1}); ok {
		t.Error("no counts tested")
	}
	if m, ok := MixTest([]int64{10, 1}, []int{1, 0}); !ok || m.P != 0 {
		t.Errorf("a type of weight zero drawn: %+v %v", m, ok)
	}
}
