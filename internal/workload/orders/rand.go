package orders

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"strings"
)

// NURand is the non-uniform random number of clause 2.1.6:
// (((random(0, a) | random(x, y)) + c) % (y - x + 1)) + x, with a = 255
// for customer last names, 1023 for customer ids and 8191 for item ids,
// and c that field's constant.
func NURand(r *rand.Rand, a, c, x, y int) int {
	return int(nurand(r, int64(a), int64(c), int64(x), int64(y)))
}

// lastNameA is the A of NURand for customer last names (clause 2.1.6).
const lastNameA = 255

// LoadC is the C of NURand for the customers' last names at load, C_LOAD
// (clause 2.1.6), drawn from the data seed in [0, 255]: the last names of
// customers 1001 to 3000 of each district come from NURand(255, 0, 999)
// with it. A run's C for last names must keep a distance from it
// (clause 2.1.6.1), so a run over a database loaded from seed takes it
// from here.
func LoadC(seed uint64) int64 {
	return rand.New(newSource(seed, streamConstants, 0, 0)).Int64N(lastNameA + 1)
}

// lastNameSyllables make a customer's last name from a number in [0,
// 999]: the syllables of its three digits (clause 4.3.2.3).
var lastNameSyllables = [10]string{"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"}

// LastName is the last name of number n in [0, 999]: 371 is
// PRI-CALLY-OUGHT, "PRICALLYOUGHT".
func LastName(n int) string {
	return lastNameSyllables[n/100] + lastNameSyllables[n/10%10] + lastNameSyllables[n%10]
}

// The streams of the population: each table (and each of the orders'
// own draws) has its own, per warehouse and district, so that any
// warehouse's rows can be made alone and in any order. The numbers are
// part of the data: add new streams at the end.
const (
	streamConstants = iota + 1
	streamItem
	streamWarehouse
	streamStock
	streamDistrict
	streamCustomer
	streamHistory
	streamOrders
	streamOrderCustomers
	streamLineCounts
	streamOrderLine
	streamNewOrder // draws nothing yet
)

// newSource is the stream of one table's rows of warehouse w, district d
// (0 for a table kept per warehouse or once): ChaCha8 keyed by all four,
// so the streams are independent of each other.
func newSource(seed uint64, stream, w, d int64) *rand.ChaCha8 {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[0:], seed)
	binary.LittleEndian.PutUint64(key[8:], uint64(stream))
	binary.LittleEndian.PutUint64(key[16:], uint64(w))
	binary.LittleEndian.PutUint64(key[24:], uint64(d))
	return rand.NewChaCha8(key)
}

// The character sets of a-strings and n-strings (clause 4.3.2.2).
const (
	alphanumeric = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	digits       = "0123456789"
	upper        = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
)

// original marks 10% of the items' and stocks' data (clause 4.3.3.1).
const original = "ORIGINAL"

// gen draws the values of the initial rows (clause 4.3.3.1) from one
// stream.
type gen struct {
	r *rand.Rand
}

func newGen(seed uint64, stream, w, d int64) gen {
	return gen{r: rand.New(newSource(seed, stream, w, d))}
}

// between is uniform in [lo, hi].
func (g gen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

// text is n characters of set. Six characters come from each 64-bit draw
// (each takes the top of the draw times the set's size and keeps the
// rest for the next): a draw per character would make the generator the
// slower side of a bulk load; six of at most 6 bits leave 28 bits, so
// the bias is below one part in 2^22.
func (g gen) text(n int, set string) string {
	var b strings.Builder
	b.Grow(n)
	size := uint64(len(set))
	var u uint64
	for i := 0; i < n; i++ {
		if i%6 == 0 {
			u = g.r.Uint64()
		}
		var hi uint64
		hi, u = bits.Mul64(u, size)
		b.WriteByte(set[hi])
	}
	return b.String()
}

// astring is a random a-string of length in [lo, hi].
func (g gen) astring(lo, hi int) string { return g.text(g.between(lo, hi), alphanumeric) }

// nstring is a random n-string of length n.
func (g gen) nstring(n int) string { return g.text(n, digits) }

// state is two random letters.
func (g gen) state() string { return g.text(2, upper) }

// zip is four random digits and "11111" (clause 4.3.2.7).
func (g gen) zip() string { return g.nstring(4) + "11111" }

// data is an a-string of 26 to 50 characters holding "ORIGINAL" at a
// random place in 10% of the rows (clause 4.3.3.1, I_DATA and S_DATA).
func (g gen) data() string {
	s := g.astring(26, 50)
	if g.r.IntN(10) != 0 {
		return s
	}
	at := g.r.IntN(len(s) - len(original) + 1)
	return s[:at] + original + s[at+len(original):]
}

// tax is a random rate in [0.0000, 0.2000].
func (g gen) tax() string { return fixed(int64(g.between(0, 2000)), 4) }
