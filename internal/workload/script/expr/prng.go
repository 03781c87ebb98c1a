package expr

import (
	"math"
	"math/bits"
)

// PRNG is PostgreSQL's pg_prng: xoroshiro128** 1.0 (Blackman and Vigna),
// seeded from one 64-bit number through splitmix64, so a seed gives the
// very sequence pgbench draws. The zero PRNG is not seeded: call Seed or
// use NewPRNG. A PRNG is a plain value: copy it to save a client's state
// (a retried transaction draws again what its first try drew).
type PRNG struct {
	s0, s1 uint64
}

// NewPRNG is a generator seeded with seed.
func NewPRNG(seed uint64) PRNG {
	var r PRNG
	r.Seed(seed)
	return r
}

// Seed sets the state from seed as pg_prng_seed does.
func (r *PRNG) Seed(seed uint64) {
	r.s0 = splitmix64(&seed)
	r.s1 = splitmix64(&seed)
	if r.s0 == 0 && r.s1 == 0 {
		// All zeroes is the generator's fixed point; any other state will do,
		// and this is the one pg_prng picks.
		r.s0, r.s1 = 0x5851F42D4C957F2D, 0x14057B7EF767814F
	}
}

func splitmix64(state *uint64) uint64 {
	*state += 0x9E3779B97F4A7C15
	v := *state
	v = (v ^ (v >> 30)) * 0xBF58476D1CE4E5B9
	v = (v ^ (v >> 27)) * 0x94D049BB133111EB
	return v ^ (v >> 31)
}

// Split is a new generator seeded from this one's next number: how pgbench
// derives every per-client and per-thread generator from --random-seed.
func (r *PRNG) Split() PRNG {
	return NewPRNG(r.Uint64())
}

// Uint64 is the next 64-bit number.
func (r *PRNG) Uint64() uint64 {
	s0 := r.s0
	sx := r.s1 ^ s0
	v := bits.RotateLeft64(s0*5, 7) * 9
	r.s0 = bits.RotateLeft64(s0, 24) ^ sx ^ (sx << 16)
	r.s1 = bits.RotateLeft64(sx, 37)
	return v
}

// Uint64Range is uniform in [lo, hi] by bitmask rejection, drawing as
// pg_prng_uint64_range does; lo when the range is empty.
func (r *PRNG) Uint64Range(lo, hi uint64) uint64 {
	if hi <= lo {
		return lo
	}
	span := hi - lo
	shift := uint(bits.LeadingZeros64(span))
	for {
		if v := r.Uint64() >> shift; v <= span {
			return lo + v
		}
	}
}

// Double is uniform in [0, 1) with 52 random bits.
func (r *PRNG) Double() float64 {
	return math.Ldexp(float64(r.Uint64()>>12), -52)
}

// Seeding is what pgbench 15 derives from --random-seed before a run, in
// its order: one generator per client for the random functions, then
// :default_seed (unless -D set it), then, left in Base, the sequence each
// thread's own generators are split from (script choice, --rate schedule,
// log sampling, in that order).
type Seeding struct {
	Clients     []PRNG
	DefaultSeed int64 // meaningful when the caller said -D did not set it
	Base        PRNG
}

// SeedClients derives a run's generators from randomSeed as pgbench does.
func SeedClients(randomSeed uint64, clients int, defaultSeedGiven bool) Seeding {
	s := Seeding{Base: NewPRNG(randomSeed), Clients: make([]PRNG, clients)}
	for i := range s.Clients {
		s.Clients[i] = s.Base.Split()
	}
	if !defaultSeedGiven {
		s.DefaultSeed = int64(s.Base.Uint64())
	}
	return s
}
