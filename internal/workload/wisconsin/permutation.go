// Package wisconsin describes the Wisconsin benchmark (seeds 000 and 003,
// docs/wisconsin.md): its relations, their data, generated deterministically
// and streamed in constant memory, and its 32 queries. It describes; it never
// drives an engine or measures.
package wisconsin

import "fmt"

// generator is one row of the prime-modulus table of docs/wisconsin.md §2:
// g is a primitive root of the prime p, and every N up to limit uses it.
type generator struct{ limit, g, p int64 }

// The first six rows are the Handbook's. DECISION (docs/wisconsin.md §2): above 10^8 the
// original stops; dbgauge adds 1,000,000,007 (prime) with its smallest
// primitive root 5, checked in permutation_test.go, computed in 64 bits.
var generators = []generator{
	{1_000, 279, 1_009},
	{10_000, 2_969, 10_007},
	{100_000, 21_395, 100_003},
	{1_000_000, 2_107, 1_000_003},
	{10_000_000, 211, 10_000_019},
	{100_000_000, 21, 100_000_007},
	{1_000_000_000, 5, 1_000_000_007},
}

// MaxSize is the largest base size the generator supports.
const MaxSize = 1_000_000_000

// Permutation yields unique1: a pseudo-random permutation of 0..n-1 without
// storing it.
type Permutation struct {
	n, g, p, seed int64
}

// NewPermutation starts the sequence for n tuples.
func NewPermutation(n int64) (*Permutation, error) {
	for _, r := range generators {
		if n <= r.limit {
			return &Permutation{n: n, g: r.g, p: r.p, seed: r.g}, nil
		}
	}
	return nil, fmt.Errorf("relation size %d is above the largest supported %d", n, int64(MaxSize))
}

// Next returns the next unique1. It must be called at most n times.
func (pm *Permutation) Next() int64 {
	// The seed starts at g, and g itself is the first candidate, as in the
	// Handbook's generator: test vectors start 147 for N=1000 (g^2 mod p).
	for {
		pm.seed = (pm.g * pm.seed) % pm.p
		if pm.seed <= pm.n {
			return pm.seed - 1
		}
	}
}
