package wisconsin

import (
	"math"
	"strings"
	"testing"
)

func TestStr(t *testing.T) {
	x45 := strings.Repeat("x", 45)
	for _, c := range []struct {
		v    int64
		want string
	}{
		{0, "AAAAAAA" + x45},
		{1, "AAAAAAB" + x45},
		{26, "AAAAABA" + x45},
		{26*26 + 3, "AAAABAD" + x45},
	} {
		if got := Str(c.v); got != c.want {
			t.Errorf("Str(%d) = %q, want %q", c.v, got, c.want)
		}
	}
	// Lexicographic order equals numeric order.
	for v := int64(0); v < 2000; v++ {
		if Str(v) >= Str(v+1) {
			t.Fatalf("Str(%d) >= Str(%d)", v, v+1)
		}
	}
	if len(Str(1_000_000_000)) != StringLen || len(String4(3)) != StringLen {
		t.Error("strings are not 52 characters")
	}
	if String4(0)[:4] != "AAAA" || String4(5)[:4] != "HHHH" || String4(6)[:4] != "OOOO" || String4(7)[:4] != "VVVV" {
		t.Error("string4 does not cycle AAAA HHHH OOOO VVVV")
	}
}

// generate streams a relation and returns its rows (small N only).
func generate(t *testing.T, r Relation, n int64) ([][]any, *Census) {
	t.Helper()
	g, err := NewRows(r, n)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]any
	for {
		row := make([]any, len(Attributes))
		if !g.Next(row) {
			break
		}
		out = append(out, row)
	}
	return out, g.Census()
}

func TestRelationInvariants(t *testing.T) {
	for _, n := range []int64{1_000, 10_000, 100_000} {
		rows, cen := generate(t, Tenktup1, n)
		if err := cen.CheckFull(n); err != nil {
			t.Fatalf("N=%d: %v", n, err)
		}
		counts := map[string]map[int64]int64{}
		mods := map[string]int64{"two": 2, "four": 4, "ten": 10, "twenty": 20, "onepercent": 100, "tenpercent": 10, "twentypercent": 5, "fiftypercent": 2}
		for i, row := range rows {
			u1, u2 := row[0].(int64), row[1].(int64)
			if u2 != int64(i) {
				t.Fatalf("unique2[%d] = %d", i, u2)
			}
			for j, a := range Attributes[2:10] {
				v := row[j+2].(int64)
				if v != u1%mods[a] {
					t.Fatalf("%s = %d for unique1 %d", a, v, u1)
				}
				if counts[a] == nil {
					counts[a] = map[int64]int64{}
				}
				counts[a][v]++
			}
			if row[10].(int64) != u1 || row[11].(int64) != (u1%100)*2 || row[12].(int64) != (u1%100)*2+1 {
				t.Fatalf("unique3/evenOnePercent/oddOnePercent wrong at %d", i)
			}
			if row[13].(string) != Str(u1) || row[14].(string) != Str(u2) || row[15].(string) != String4(int64(i)) {
				t.Fatalf("strings wrong at %d", i)
			}
		}
		// Every value of each modulus attribute occurs exactly N/modulus times.
		for a, m := range mods {
			if int64(len(counts[a])) != m {
				t.Errorf("N=%d %s has %d values, want %d", n, a, len(counts[a]), m)
			}
			for v, k := range counts[a] {
				if k != n/m {
					t.Errorf("N=%d %s=%d occurs %d times, want %d", n, a, v, k, n/m)
				}
			}
		}
		// unique1 and unique2 are uncorrelated: |Pearson r| is tiny.
		if r := correlation(rows); r > 0.05 || r < -0.05 {
			t.Errorf("N=%d: correlation(unique1, unique2) = %.3f", n, r)
		}
		want := int64(400)
		if n == 1000 {
			want = 376 // docs/wisconsin.md §6, Q18 note
		}
		if cen.Q18Distinct != want {
			t.Errorf("N=%d: Q18 distinct = %d, want %d", n, cen.Q18Distinct, want)
		}
	}
}

func correlation(rows [][]any) float64 {
	var sx, sy, sxx, syy, sxy, n float64
	for _, r := range rows {
		x, y := float64(r[0].(int64)), float64(r[1].(int64))
		sx, sy, sxx, syy, sxy, n = sx+x, sy+y, sxx+x*x, syy+y*y, sxy+x*y, n+1
	}
	cov := sxy/n - sx/n*sy/n
	return cov / math.Sqrt((sxx/n-sx*sx/n/n)*(syy/n-sy*sy/n/n))
}

func TestOtherRelations(t *testing.T) {
	const n = 10_000
	c, cen := generate(t, Onektup, n)
	if err := cen.CheckFull(n / 10); err != nil {
		t.Fatalf("ONEKTUP: %v", err)
	}
	if c[0][0].(int64) != 147 { // its own N/10 = 1000 permutation
		t.Errorf("ONEKTUP first unique1 = %v, want 147", c[0][0])
	}
	a, _ := generate(t, Tenktup2, n)
	bp, _ := generate(t, Bprime, n)
	if len(bp) != n/10 {
		t.Fatalf("BPRIME has %d tuples", len(bp))
	}
	for i := range bp {
		if bp[i][0] != a[i][0] || bp[i][1].(int64) >= n/10 {
			t.Fatalf("BPRIME tuple %d is not TENKTUP2's tuple with unique2 < N/10", i)
		}
	}
}

func TestCheckSize(t *testing.T) {
	for _, bad := range []int64{0, 99, 150, 10_001, MaxSize + 100} {
		if CheckSize(bad) == nil {
			t.Errorf("CheckSize(%d) accepted", bad)
		}
	}
	for _, ok := range []int64{100, 10_000, 10_000_000} {
		if err := CheckSize(ok); err != nil {
			t.Errorf("CheckSize(%d): %v", ok, err)
		}
	}
}

// BenchmarkRows measures the generator alone: it must outrun every engine's
// bulk load (bench/ compares it with the loads).
func BenchmarkRows(b *testing.B) {
	g, _ := NewRows(Tenktup1, 10_000_000)
	row := make([]any, len(Attributes))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if !g.Next(row) {
			g, _ = NewRows(Tenktup1, 10_000_000)
		}
	}
}
