package expr

import "math/bits"

const (
	fnvPrime      = 0x100000001b3
	fnvOffset     = 0xcbf29ce484222325
	murmurMul     = 0xc6a4a7935bd1e995
	murmurMulBy8  = 0x35253c9ade8f4ca8 // murmurMul * 8, the input's length
	murmurShift   = 47
	permuteRounds = 6
)

// HashFNV1a is pgbench's hash_fnv1a: FNV-1a over the value's 8 bytes, low
// byte first, from the offset basis xor seed.
func HashFNV1a(val int64, seed uint64) int64 {
	h := uint64(fnvOffset) ^ seed
	u := uint64(val)
	for i := 0; i < 8; i++ {
		h ^= u & 0xff
		h *= fnvPrime
		u >>= 8
	}
	return int64(h)
}

// HashMurmur2 is pgbench's hash_murmur2 (and hash): MurmurHash64A of the
// value's 8 bytes.
func HashMurmur2(val int64, seed uint64) int64 {
	h := seed ^ murmurMulBy8
	k := uint64(val)
	k *= murmurMul
	k ^= k >> murmurShift
	k *= murmurMul
	h ^= k
	h *= murmurMul
	h ^= h >> murmurShift
	h *= murmurMul
	h ^= h >> murmurShift
	return int64(h)
}

// Permute is pgbench's permute(i, size, seed): where i (taken modulo size)
// goes in a pseudo-random permutation of [0, size) chosen by seed; 0 when
// size < 2. Six rounds of an odd multiply, xor and rotate on the lower and
// upper power-of-two halves, then a random offset, all from a PRNG seeded
// with seed, as pgbench computes it.
func Permute(val, size, seed int64) int64 {
	if size < 2 {
		return 0
	}
	r := NewPRNG(uint64(seed))
	n := uint64(size)
	v := uint64(val) % n
	maskLen := 63 - bits.LeadingZeros64(n)
	mask := uint64(1)<<maskLen - 1
	for i := 0; i < permuteRounds; i++ {
		m := r.Uint64()&mask | 1
		x := r.Uint64() & mask
		if v <= mask {
			v = (v*m ^ x) & mask
			v = (v<<1)&mask | v>>(maskLen-1)
		}
		m = r.Uint64()&mask | 1
		x = r.Uint64() & mask
		if t := n - 1 - v; t <= mask {
			t = (t*m ^ x) & mask
			t = (t<<1)&mask | t>>(maskLen-1)
			v = n - 1 - t
		}
		v = (v + r.Uint64Range(0, n-1)) % n
	}
	return int64(v)
}
