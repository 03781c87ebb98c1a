package wisconsin

import "fmt"

// Census is computed from the tuples as they are generated; the expected
// cardinalities of the queries come from it, never from a typed-in number.
type Census struct {
	Tuples int64
	// Unique1Perm and Unique2Perm: each value 0..N-1 occurred exactly once
	// (only meaningful when the whole generated relation was emitted).
	Unique1Perm, Unique2Perm bool
	// OnePercent[v] counts tuples with onePercent = v.
	OnePercent [100]int64
	// Q18Distinct is the number of distinct (two, four, ten, twenty,
	// onePercent, string4) tuples, the result of query 18.
	Q18Distinct int64

	gen    int64
	u1, u2 []uint64 // bitsets over 0..gen-1
	pairs  [400]bool
	dupU1  bool
	dupU2  bool
}

func newCensus(gen int64) *Census {
	words := (gen + 63) / 64
	return &Census{gen: gen, u1: make([]uint64, words), u2: make([]uint64, words)}
}

func (c *Census) add(u1, u2 int64) {
	c.Tuples++
	if c.u1[u1/64]&(1<<(u1%64)) != 0 {
		c.dupU1 = true
	}
	c.u1[u1/64] |= 1 << (u1 % 64)
	if c.u2[u2/64]&(1<<(u2%64)) != 0 {
		c.dupU2 = true
	}
	c.u2[u2/64] |= 1 << (u2 % 64)
	one := u1 % 100
	c.OnePercent[one]++
	// two, four, ten and twenty are functions of onePercent; string4 is u2 mod 4.
	if k := one*4 + u2%4; !c.pairs[k] {
		c.pairs[k] = true
		c.Q18Distinct++
	}
	if c.Tuples == c.gen {
		c.Unique1Perm, c.Unique2Perm = !c.dupU1, !c.dupU2
	}
}

// CheckFull verifies the invariants of a fully generated relation of n
// tuples: both keys are permutations and, when 100 divides n, every
// onePercent value occurs exactly n/100 times (ONEKTUP of N = 1,500 has 150
// tuples, for which that cannot hold).
func (c *Census) CheckFull(n int64) error {
	if c.Tuples != n {
		return fmt.Errorf("generated %d tuples, want %d", c.Tuples, n)
	}
	if !c.Unique1Perm || !c.Unique2Perm {
		return fmt.Errorf("unique1/unique2 are not permutations of 0..%d", n-1)
	}
	for v, k := range c.OnePercent {
		if n%100 == 0 && k != n/100 {
			return fmt.Errorf("onePercent = %d occurs %d times, want %d", v, k, n/100)
		}
	}
	return nil
}
