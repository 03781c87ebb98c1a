package orders

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/workload"
)

// TestAuditCountsEveryField: Add (and the tests' Sub) go over every field
// of Audit, so a count added later is merged too.
func TestAuditCountsEveryField(t *testing.T) {
	var a Audit
	if n := reflect.TypeOf(a).NumField(); n != len(a.counts()) {
		t.Fatalf("Audit has %d fields, counts() %d", n, len(a.counts()))
	}
	b := Audit{}
	for i, p := range b.counts() {
		*p = int64(i + 1)
	}
	a.Add(b)
	a.Add(b)
	v := reflect.ValueOf(a)
	for i := 0; i < v.NumField(); i++ {
		if got, want := v.Field(i).Int(), 2*reflect.ValueOf(b).Field(i).Int(); got != want {
			t.Errorf("%s: %d after adding %d twice", v.Type().Field(i).Name, got, want/2)
		}
	}
}

func TestCheckMix(t *testing.T) {
	if err := CheckMix(DefaultMix); err != nil {
		t.Errorf("the default mix: %v", err)
	}
	if err := CheckMix([numTypes]int{0, 0, 0, 0, 1}); err != nil {
		t.Errorf("stock-level only: %v", err)
	}
	for mix, want := range map[[numTypes]int]string{{}: "every weight is 0", {45, -1, 4, 4, 4}: "payment has weight -1"} {
		if err := CheckMix(mix); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckMix(%v) = %v, want %q", mix, err, want)
		}
	}
	types := Types(DefaultMix)
	if len(types) != numTypes || types[Delivery] != (workload.Type{Name: "delivery", Weight: 4, Limit: workload.Limit{Percentile: 90, Max: 5 * time.Second}}) {
		t.Errorf("Types = %v", types)
	}
}

// TestDrawByWeight: a client draws the types in the shares of its mix,
// and only its own warehouses and district.
func TestDrawByWeight(t *testing.T) {
	cases := []struct {
		mix  [numTypes]int
		want [numTypes]float64
	}{
		{DefaultMix, [numTypes]float64{0.45, 0.43, 0.04, 0.04, 0.04}},
		{[numTypes]int{0, 0, 0, 0, 3}, [numTypes]float64{0, 0, 0, 0, 1}},
		{[numTypes]int{1, 0, 0, 1, 0}, [numTypes]float64{0.5, 0, 0, 0.5, 0}},
	}
	for _, tc := range cases {
		cfg := workload.ClientConfig{Client: 13, Clients: 20, Scale: 4}
		c := NewClient(cfg, ClientOptions{Dims: SpecDims(4), C: RunConstants(1, 2), Mix: tc.mix})
		rng := rand.New(rand.NewPCG(6, 6))
		var n [numTypes]int
		const draws = 50_000
		for i := 0; i < draws; i++ {
			c.draw(rng)
			n[c.typ]++
			var w int64
			switch c.typ {
			case NewOrder:
				w = c.no.w
			case Payment:
				w = c.pay.w
			case OrderStatus:
				w = c.os.w
			case Delivery:
				w = c.del.w
			default:
				w = c.sl.w
				if c.sl.d != 4 {
					t.Fatalf("client 13's stock-level district is %d, want 4", c.sl.d)
				}
			}
			if w != 3 { // Home(13, 20, 4)
				t.Fatalf("client 13 of 20 at 4 warehouses drew warehouse %d", w)
			}
		}
		for i, share := range tc.want {
			if got := float64(n[i]) / draws; got < share-0.01 || got > share+0.01 {
				t.Errorf("mix %v: %s drawn %.3f of the time, want %.2f", tc.mix, TxnNames[i], got, share)
			}
		}
	}
}

// TestEveryStatementNamed: every statement the client runs has a name
// under some type, so none goes untimed.
func TestEveryStatementNamed(t *testing.T) {
	all := append(append(append([]string{}, txSQL...), readSQL[:]...), sqlInsertLines[1:]...)
	for _, q := range all {
		named := false
		for typ := range stmtIndex {
			_, ok := stmtIndex[typ][q]
			named = named || ok
		}
		if !named {
			t.Errorf("statement %q has no name", q)
		}
	}
	if names := StatementNames(); len(names) != numTypes || len(names[NewOrder]) != 9 {
		t.Errorf("StatementNames() = %v", names)
	}
}
