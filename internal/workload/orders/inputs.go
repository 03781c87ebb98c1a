package orders

import (
	"math/rand/v2"
)

// Dims are the sizes of the database a client draws its inputs over. A
// run's database has the spec's (SpecDims, clause 1.2 and 4.3); a test
// that builds a small database names its own, so that every drawn key
// exists there.
type Dims struct {
	// Warehouses is the scale.
	Warehouses int64
	// Customers per district (3,000), Items (100,000), and Names: the
	// distinct last names, held by the first Names customers of every
	// district (1,000: clause 4.3.3.1).
	Customers, Items, Names int64
}

// SpecDims are the spec's sizes at w warehouses.
func SpecDims(w int64) Dims {
	return Dims{Warehouses: w, Customers: 3000, Items: 100_000, Names: 1000}
}

// The A of NURand for each field (clause 2.1.6).
const (
	aLast     = 255
	aCustomer = 1023
	aItem     = 8191
)

// Constants are the C values of NURand for a run (clause 2.1.6): one per
// field, the same on every terminal of the run.
type Constants struct {
	Last, Customer, Item int64
}

// RunConstants are a run's C values, drawn from the run's seed (so every
// client and remote agent of the run draws the same ones) given the C of
// the last names the database was loaded with: clause 2.1.6.1 wants the
// run's C for C_LAST to differ from the load's by 65..119, but not by 96
// or 112, so that the run's names are not the load's pattern.
func RunConstants(seed uint64, loadLast int64) Constants {
	rng := rand.New(rand.NewPCG(seed, 0x0c0c0c0c))
	k := Constants{Customer: rng.Int64N(aCustomer + 1), Item: rng.Int64N(aItem + 1)}
	var ok []int64
	for c := int64(0); c <= aLast; c++ {
		d := c - loadLast
		if d < 0 {
			d = -d
		}
		if d >= 65 && d <= 119 && d != 96 && d != 112 {
			ok = append(ok, c)
		}
	}
	k.Last = ok[rng.IntN(len(ok))]
	return k
}

// nurand is NURand(A, x, y) with constant c (clause 2.1.6):
// (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x.
func nurand(rng *rand.Rand, a, c, x, y int64) int64 {
	return ((rng.Int64N(a+1)|(rng.Int64N(y-x+1)+x))+c)%(y-x+1) + x
}

// between is a uniform integer in [lo, hi].
func between(rng *rand.Rand, lo, hi int64) int64 { return lo + rng.Int64N(hi-lo+1) }

// lastNames are the 1,000 last names, made once: a draw then allocates
// nothing.
var lastNames = func() (out [1000]string) {
	for n := range out {
		out[n] = LastName(n)
	}
	return out
}()

// lastName is the last name of number n in 0..999: the syllables of its
// three digits (clause 4.3.2.3).
func lastName(n int64) string { return lastNames[n] }

// Home is the range of warehouses client i of n owns at w warehouses:
// consecutive clients share a warehouse when there are more clients than
// warehouses (each warehouse gets n/w of them, give or take one), and
// each client owns a run of consecutive warehouses when there are fewer,
// drawing its home warehouse among them for each transaction. So the
// clients of a remote agent, numbered consecutively, hold warehouses of
// their own, as the spec's terminals each have a home warehouse (clause
// 2.1.3 and 5.5.1).
func Home(i, n int, w int64) (lo, hi int64) {
	lo = int64(i)*w/int64(n) + 1
	hi = int64(i+1) * w / int64(n)
	if hi < lo {
		hi = lo
	}
	return lo, hi
}

// orderLine is one line of a New-Order's inputs.
type orderLine struct {
	number, item, supply, quantity int64
	remote                         bool
}

// newOrderIn are a New-Order's inputs (clause 2.4.1).
type newOrderIn struct {
	w, d, c  int64
	lines    [MaxLines]orderLine
	n        int
	rollback bool // the last line's item is unused (rbk = 1)
	allLocal bool
	remote   int64 // lines supplied by another warehouse
}

// draw fills in for home warehouse w: a uniform district, a customer by
// NURand, 5..15 lines of NURand items (drawn again until distinct, as
// go-tpc does, so that no stock row is updated twice by one order), 1%
// of the lines from another warehouse, quantities
// 1..10, and in 1% of the orders an unused item as the last line. The
// lines are then sorted by item and warehouse (they keep their line
// numbers), which puts the unused item last; the stock rows are locked by
// one UPDATE, in the order the engine's plan visits them.
func (in *newOrderIn) draw(rng *rand.Rand, dims Dims, k Constants, w int64) {
	in.w, in.d = w, between(rng, 1, DistrictsPerWarehouse)
	in.c = nurand(rng, aCustomer, k.Customer, 1, dims.Customers)
	in.n = int(between(rng, MinLines, MaxLines))
	in.rollback = between(rng, 1, 100) == 1
	in.allLocal, in.remote = true, 0
	for i := 0; i < in.n; i++ {
		l := &in.lines[i]
		l.number = int64(i + 1)
		switch {
		case i == in.n-1 && in.rollback:
			l.item = dims.Items + 1
		default:
			l.item = in.distinctItem(rng, dims, k, i)
		}
		l.supply, l.remote = w, false
		if dims.Warehouses > 1 && between(rng, 1, 100) == 1 {
			l.supply, l.remote = otherWarehouse(rng, dims.Warehouses, w), true
			in.allLocal = false
			in.remote++
		}
		l.quantity = between(rng, 1, 10)
	}
	lines := in.lines[:in.n]
	// Insertion sort: at most 15 lines, and no closure to allocate.
	for i := 1; i < len(lines); i++ {
		for j := i; j > 0 && lineBefore(&lines[j], &lines[j-1]); j-- {
			lines[j], lines[j-1] = lines[j-1], lines[j]
		}
	}
}

// distinctItem draws an item not among the first i lines'.
func (in *newOrderIn) distinctItem(rng *rand.Rand, dims Dims, k Constants, i int) int64 {
	for {
		item := nurand(rng, aItem, k.Item, 1, dims.Items)
		dup := false
		for j := 0; j < i; j++ {
			dup = dup || in.lines[j].item == item
		}
		if !dup || int64(i) >= dims.Items {
			return item
		}
	}
}

func lineBefore(a, b *orderLine) bool {
	if a.item != b.item {
		return a.item < b.item
	}
	return a.supply < b.supply
}

// otherWarehouse is a uniform warehouse other than w (w > 1 warehouses).
func otherWarehouse(rng *rand.Rand, n, w int64) int64 {
	o := between(rng, 1, n-1)
	if o >= w {
		o++
	}
	return o
}

// customerKey is how Payment and Order-Status name their customer: by
// number, or (60%) by last name (clause 2.5.1.2, 2.6.1.2).
type customerKey struct {
	byName bool
	c      int64
	last   string
}

func (ck *customerKey) draw(rng *rand.Rand, dims Dims, k Constants) {
	ck.byName = between(rng, 1, 100) <= 60
	if ck.byName {
		ck.c, ck.last = 0, lastName(nurand(rng, aLast, k.Last, 0, dims.Names-1))
		return
	}
	ck.c, ck.last = nurand(rng, aCustomer, k.Customer, 1, dims.Customers), ""
}

// paymentIn are a Payment's inputs (clause 2.5.1).
type paymentIn struct {
	w, d, cw, cd int64
	cust         customerKey
	amount       int64 // cents, 1.00..5,000.00
	remote       bool
}

// draw fills in for home warehouse w: a uniform district; the customer
// of that district (85%) or of a uniform district of another warehouse
// (15%; always home at one warehouse); by last name (60%) or number.
func (in *paymentIn) draw(rng *rand.Rand, dims Dims, k Constants, w int64) {
	in.w, in.d = w, between(rng, 1, DistrictsPerWarehouse)
	in.cw, in.cd, in.remote = w, in.d, false
	if between(rng, 1, 100) > 85 && dims.Warehouses > 1 {
		in.cw, in.cd, in.remote = otherWarehouse(rng, dims.Warehouses, w), between(rng, 1, DistrictsPerWarehouse), true
	}
	in.cust.draw(rng, dims, k)
	in.amount = between(rng, 100, 500_000)
}

// orderStatusIn are an Order-Status's inputs (clause 2.6.1).
type orderStatusIn struct {
	w, d int64
	cust customerKey
}

func (in *orderStatusIn) draw(rng *rand.Rand, dims Dims, k Constants, w int64) {
	in.w, in.d = w, between(rng, 1, DistrictsPerWarehouse)
	in.cust.draw(rng, dims, k)
}

// deliveryIn are a Delivery's inputs (clause 2.7.1).
type deliveryIn struct{ w, carrier int64 }

func (in *deliveryIn) draw(rng *rand.Rand, w int64) {
	in.w, in.carrier = w, between(rng, 1, 10)
}

// stockLevelIn are a Stock-Level's inputs (clause 2.8.1): the district is
// the terminal's own, fixed; the threshold uniform in 10..20.
type stockLevelIn struct{ w, d, threshold int64 }

func (in *stockLevelIn) draw(rng *rand.Rand, w, d int64) {
	in.w, in.d, in.threshold = w, d, between(rng, 10, 20)
}
