package orders

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestNURandStaysInRangeAndSkews(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct{ a, c, x, y int }{
		{255, 0, 0, 999}, {255, 255, 0, 999}, {1023, 1023, 1, 3000}, {8191, 8191, 1, 100_000}, {8191, 0, 1, 100_000},
	} {
		seen := map[int]int{}
		for i := 0; i < 200_000; i++ {
			v := NURand(r, tc.a, tc.c, tc.x, tc.y)
			if v < tc.x || v > tc.y {
				t.Fatalf("NURand(%d, %d, %d, %d) = %d, out of range", tc.a, tc.c, tc.x, tc.y, v)
			}
			seen[v]++
		}
		// The OR with random(0, A) skews: the most frequent value is
		// drawn far more often than a uniform draw's 200,000/(y-x+1).
		top := 0
		for _, n := range seen {
			top = max(top, n)
		}
		uniform := 200_000 / (tc.y - tc.x + 1)
		if top < 3*max(uniform, 1) {
			t.Errorf("NURand(%d, %d, %d, %d): most frequent value drawn %d times, a uniform draw gives %d: no skew", tc.a, tc.c, tc.x, tc.y, top, uniform)
		}
	}
}

// The spec's own example (clause 4.3.2.3) and the ends of the range.
func TestLastNameSyllables(t *testing.T) {
	for n, want := range map[int]string{371: "PRICALLYOUGHT", 0: "BARBARBAR", 999: "EINGEINGEING", 40: "BARPRESBAR"} {
		if got := LastName(n); got != want {
			t.Errorf("LastName(%d) = %q, want %q", n, got, want)
		}
	}
}

// C_LOAD is in [0, 255], the same for a seed, and not one value for
// every seed.
func TestLoadC(t *testing.T) {
	seen := map[int64]bool{}
	for seed := uint64(0); seed < 200; seed++ {
		c := LoadC(seed)
		if c < 0 || c > 255 || LoadC(seed) != c {
			t.Fatalf("LoadC(%d) = %d, then %d", seed, c, LoadC(seed))
		}
		seen[c] = true
	}
	if len(seen) < 100 {
		t.Errorf("200 seeds gave %d values of C_LOAD", len(seen))
	}
}

func TestFixed(t *testing.T) {
	for _, tc := range []struct {
		v     int64
		scale int
		want  string
	}{{-1000, 2, "-10.00"}, {1, 2, "0.01"}, {30000000, 2, "300000.00"}, {1234, 4, "0.1234"}, {5, 4, "0.0005"}, {0, 2, "0.00"}, {-5, 2, "-0.05"}} {
		if got := fixed(tc.v, tc.scale); got != tc.want {
			t.Errorf("fixed(%d, %d) = %q, want %q", tc.v, tc.scale, got, tc.want)
		}
	}
}

func TestGeneratedStrings(t *testing.T) {
	g := newGen(1, streamItem, 0, 0)
	counts := map[byte]int{}
	for i := 0; i < 2000; i++ {
		s := g.astring(26, 50)
		if len(s) < 26 || len(s) > 50 {
			t.Fatalf("a-string of %d characters, want 26 to 50", len(s))
		}
		for j := 0; j < len(s); j++ {
			counts[s[j]]++
		}
		z := g.zip()
		if len(z) != 9 || z[4:] != "11111" || !allIn(z[:4], digits) {
			t.Fatalf("zip %q", z)
		}
		if n := g.nstring(16); len(n) != 16 || !allIn(n, digits) {
			t.Fatalf("n-string %q", n)
		}
	}
	// Every one of the 62 characters comes, none far from its share.
	if len(counts) != len(alphanumeric) {
		t.Fatalf("%d distinct characters, want %d", len(counts), len(alphanumeric))
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	for c, n := range counts {
		if share := float64(n) * float64(len(alphanumeric)) / float64(total); share < 0.85 || share > 1.15 {
			t.Errorf("character %q drawn %.2f times its share", c, share)
		}
	}
}

// allIn says whether every character of s is in set.
func allIn(s, set string) bool { return strings.Trim(s, set) == "" }
