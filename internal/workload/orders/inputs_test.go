package orders

import (
	"math/rand/v2"
	"testing"
)

// TestLastName: the names of clause 4.3.2.3, with its own example (371 is
// PRICALLYOUGHT).
func TestLastName(t *testing.T) {
	for n, want := range map[int64]string{0: "BARBARBAR", 371: "PRICALLYOUGHT", 999: "EINGEINGEING", 50: "BARESEBAR"} {
		if got := lastName(n); got != want {
			t.Errorf("lastName(%d) = %s, want %s", n, got, want)
		}
	}
}

// TestNURand: in range, nearly every value drawn, and non-uniform: the
// values the OR favours come up more often than a uniform draw would
// give them.
func TestNURand(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := make([]int, 1000)
	for i := 0; i < 200_000; i++ {
		v := nurand(rng, aLast, 0, 0, 999)
		if v < 0 || v > 999 {
			t.Fatalf("NURand(255, 0, 999) = %d", v)
		}
		seen[v]++
	}
	max, never := 0, 0
	for _, n := range seen {
		if n == 0 {
			never++
		}
		if n > max {
			max = n
		}
	}
	// The rarest values need the OR's first draw to be 0 (1 in 256):
	// a few may not come up.
	if never > 10 {
		t.Errorf("%d of 1,000 values never drawn", never)
	}
	// Uniform would give 200 each; 255 = 0b11111111 ORed in makes the
	// values with the low 8 bits set about 4 times as frequent.
	if max < 600 {
		t.Errorf("the most frequent value came %d times in 200,000: no skew", max)
	}
	for i := 0; i < 10_000; i++ {
		if v := nurand(rng, aItem, 8000, 1, 100_000); v < 1 || v > 100_000 {
			t.Fatalf("NURand(8191, 1, 100000) = %d", v)
		}
	}
}

// TestRunConstants: the run's C for last names keeps the distance from
// the load's that clause 2.1.6.1 asks, for every load C; the same seed
// gives the same constants.
func TestRunConstants(t *testing.T) {
	for load := int64(0); load <= aLast; load++ {
		k := RunConstants(uint64(load)*7, load)
		d := k.Last - load
		if d < 0 {
			d = -d
		}
		if d < 65 || d > 119 || d == 96 || d == 112 || k.Last < 0 || k.Last > aLast {
			t.Errorf("load C %d: run C %d (distance %d)", load, k.Last, d)
		}
		if k.Customer < 0 || k.Customer > aCustomer || k.Item < 0 || k.Item > aItem {
			t.Errorf("constants %+v out of range", k)
		}
		if RunConstants(uint64(load)*7, load) != k {
			t.Error("the same seed gave other constants")
		}
	}
}

// TestHome: clients partition the warehouses: consecutive runs, each
// warehouse someone's, with more clients than warehouses each warehouse
// n/w clients give or take one.
func TestHome(t *testing.T) {
	for _, c := range []struct{ n, w int }{{1, 1}, {1, 5}, {3, 2}, {10, 1}, {7, 3}, {4, 9}, {40, 4}, {6, 6}} {
		owners := make([]int, c.w+1)
		prevHi := int64(0)
		for i := 0; i < c.n; i++ {
			lo, hi := Home(i, c.n, int64(c.w))
			if lo < 1 || hi > int64(c.w) || lo > hi || lo < prevHi || lo > prevHi+1 {
				t.Errorf("%d clients, %d warehouses: client %d owns %d..%d after %d", c.n, c.w, i, lo, hi, prevHi)
			}
			for x := lo; x <= hi; x++ {
				owners[x]++
			}
			prevHi = hi
		}
		for x := 1; x <= c.w; x++ {
			if owners[x] == 0 || (c.n >= c.w && (owners[x] < c.n/c.w || owners[x] > c.n/c.w+1)) {
				t.Errorf("%d clients, %d warehouses: warehouse %d has %d clients", c.n, c.w, x, owners[x])
			}
		}
	}
}

// TestDrawsMeetTheAudit: over many draws the inputs are within the
// bounds of clause 9.2's audit (and the lines of an order are 5..15,
// distinct, in the order the stock is locked, numbered 1..n).
func TestDrawsMeetTheAudit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	dims, k := SpecDims(4), RunConstants(5, 17)
	var in newOrderIn
	var orders, rollbacks, lines, remote int64
	for i := 0; i < 100_000; i++ {
		in.draw(rng, dims, k, 2)
		orders++
		lines += int64(in.n)
		remote += in.remote
		if in.rollback {
			rollbacks++
			if in.lines[in.n-1].item != dims.Items+1 {
				t.Fatalf("a rollback's unused item is not processed last: %+v", in.lines[:in.n])
			}
		}
		if in.n < 5 || in.n > 15 || in.w != 2 || in.d < 1 || in.d > 10 || in.c < 1 || in.c > 3000 {
			t.Fatalf("inputs %+v", in)
		}
		numbers := 0
		for j, l := range in.lines[:in.n] {
			numbers |= 1 << l.number
			if j > 0 && !lineBefore(&in.lines[j-1], &l) {
				t.Fatalf("lines not in stock order: %+v", in.lines[:in.n])
			}
			if l.quantity < 1 || l.quantity > 10 || (l.remote != (l.supply != 2)) || l.supply < 1 || l.supply > 4 {
				t.Fatalf("line %+v", l)
			}
		}
		if numbers != (1<<(in.n+1))-2 {
			t.Fatalf("line numbers of %+v are not 1..%d", in.lines[:in.n], in.n)
		}
	}
	within(t, "rollbacks", float64(rollbacks)/float64(orders), 0.009, 0.011)
	within(t, "lines per order", float64(lines)/float64(orders), 9.5, 10.5)
	within(t, "remote lines", float64(remote)/float64(lines), 0.0095, 0.0105)

	var pay paymentIn
	var os orderStatusIn
	var payments, remotePay, byName, osByName int64
	for i := 0; i < 100_000; i++ {
		pay.draw(rng, dims, k, 3)
		os.draw(rng, dims, k, 3)
		payments++
		if pay.remote {
			remotePay++
			if pay.cw == 3 {
				t.Fatalf("remote payment at home: %+v", pay)
			}
		}
		if pay.cust.byName {
			byName++
		}
		if os.cust.byName {
			osByName++
		}
		if pay.amount < 100 || pay.amount > 500_000 {
			t.Fatalf("amount %d", pay.amount)
		}
	}
	within(t, "remote payments", float64(remotePay)/float64(payments), 0.14, 0.16)
	within(t, "payments by last name", float64(byName)/float64(payments), 0.57, 0.63)
	within(t, "order-status by last name", float64(osByName)/float64(payments), 0.57, 0.63)
}

func within(t *testing.T, what string, v, lo, hi float64) {
	t.Helper()
	if v < lo || v > hi {
		t.Errorf("%s: %.4f, outside %.4f..%.4f", what, v, lo, hi)
	}
}

// TestOneWarehouseIsAllHome: at one warehouse no line and no payment is
// remote.
func TestOneWarehouseIsAllHome(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	dims, k := SpecDims(1), RunConstants(1, 1)
	var in newOrderIn
	var pay paymentIn
	for i := 0; i < 10_000; i++ {
		in.draw(rng, dims, k, 1)
		pay.draw(rng, dims, k, 1)
		if in.remote != 0 || !in.allLocal || pay.remote || pay.cw != 1 || pay.cd != pay.d {
			t.Fatalf("remote at one warehouse: %+v %+v", in, pay)
		}
	}
}
