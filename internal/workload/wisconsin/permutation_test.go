package wisconsin

import "testing"

func TestPermutationVectors(t *testing.T) {
	cases := []struct {
		n     int64
		first []int64
		last  int64
	}{
		{1_000, []int64{147, 931, 714, 711, 883}, 278},
		{10_000, []int64{8800, 1891, 3420, 9850, 7164}, 2968},
		{100_000, []int64{32293, 9402, 71151, 51373, 13756}, 21394},
		{1_000_000, []int64{439436, 890983, 297656, 161417, 106705}, 2106},
	}
	for _, c := range cases {
		p, err := NewPermutation(c.n)
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, c.n)
		var last int64
		for i := int64(0); i < c.n; i++ {
			v := p.Next()
			if i < int64(len(c.first)) && v != c.first[i] {
				t.Errorf("N=%d: unique1[%d] = %d, want %d", c.n, i, v, c.first[i])
			}
			if v < 0 || v >= c.n || seen[v] {
				t.Fatalf("N=%d: unique1[%d] = %d out of range or repeated", c.n, i, v)
			}
			seen[v] = true
			last = v
		}
		if last != c.last {
			t.Errorf("N=%d: last unique1 = %d, want %d", c.n, last, c.last)
		}
	}
}

// Every generator row must use a primitive root of its prime, or the
// permutation would not cover 1..N.
func TestGeneratorsArePrimitiveRoots(t *testing.T) {
	for _, r := range generators {
		if !isPrime(r.p) {
			t.Errorf("%d is not prime", r.p)
		}
		if !isPrimitiveRoot(r.g, r.p) {
			t.Errorf("%d is not a primitive root of %d", r.g, r.p)
		}
	}
}

func isPrime(n int64) bool {
	for d := int64(2); d*d <= n; d++ {
		if n%d == 0 {
			return false
		}
	}
	return n > 1
}

func powMod(b, e, m int64) int64 {
	r := int64(1)
	b %= m
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = r * b % m
		}
		b = b * b % m
	}
	return r
}

func isPrimitiveRoot(g, p int64) bool {
	phi := p - 1
	n := phi
	for d := int64(2); d*d <= n; d++ {
		if n%d == 0 {
			if powMod(g, phi/d, p) == 1 {
				return false
			}
			for n%d == 0 {
				n /= d
			}
		}
	}
	if n > 1 && powMod(g, phi/n, p) == 1 {
		return false
	}
	return true
}
