package orders

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// drain reads every row of src.
func drain(t *testing.T, tb workload.Table, src dbms.RowSource) [][]any {
	return take(t, tb, src, -1)
}

// take reads the first n rows of src (every row: n < 0).
func take(t *testing.T, tb workload.Table, src dbms.RowSource, n int) [][]any {
	t.Helper()
	var out [][]any
	for len(out) != n {
		row := make([]any, len(tb.Columns))
		if !src.Next(row) {
			return out
		}
		for i, v := range row {
			switch v.(type) {
			case int64, string, time.Time, nil:
			default:
				t.Fatalf("%s.%s: value %v of type %T", tb.Name, tb.Columns[i].Name, v, v)
			}
		}
		out = append(out, row)
	}
	return out
}

func table(t *testing.T, s workload.Schema, name string) workload.Table {
	t.Helper()
	for _, tb := range s.Tables {
		if tb.Name == name {
			return tb
		}
	}
	t.Fatalf("no table %s", name)
	return workload.Table{}
}

// colIndex is the index of column name in tb.
func colIndex(t *testing.T, tb workload.Table, name string) int {
	t.Helper()
	for i, c := range tb.Columns {
		if c.Name == name {
			return i
		}
	}
	t.Fatalf("no column %s.%s", tb.Name, name)
	return -1
}

// Every table yields the rows its Rows says, the spec's counts per
// warehouse, and its parts are its rows warehouse by warehouse: the same
// values, in the same order.
func TestRowCountsAndParts(t *testing.T) {
	const w = 2
	s := Schema(w)
	want := map[string]int64{
		TableItem: Items, TableWarehouse: w, TableDistrict: 10 * w, TableCustomer: 30_000 * w, TableHistory: 30_000 * w,
		TableOrders: 30_000 * w, TableNewOrder: 9_000 * w, TableStock: 100_000 * w,
	}
	if len(s.Tables) != 9 {
		t.Fatalf("%d tables, want 9", len(s.Tables))
	}
	for _, tb := range s.Tables {
		all := tb.Fill()
		a, b := make([]any, len(tb.Columns)), make([]any, len(tb.Columns))
		var n int64
		for p := 0; p < tb.Parts; p++ {
			part := tb.FillPart(p)
			for part.Next(a) {
				if !all.Next(b) {
					t.Fatalf("%s: part %d goes on after Fill's last row", tb.Name, p)
				}
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("%s: row %d of Fill is %v, of part %d %v", tb.Name, n, b, p, a)
				}
				n++
			}
		}
		if all.Next(b) {
			t.Errorf("%s: Fill goes on after the parts' last row", tb.Name)
		}
		if n != tb.Rows {
			t.Errorf("%s: %d rows, Rows says %d", tb.Name, n, tb.Rows)
		}
		if want, ok := want[tb.Name]; ok && tb.Rows != want {
			t.Errorf("%s: %d rows, want %d", tb.Name, tb.Rows, want)
		}
		wantParts := w
		if tb.Name == TableItem {
			wantParts = 1
		}
		if tb.Parts != wantParts {
			t.Errorf("%s: %d parts, want %d", tb.Name, tb.Parts, wantParts)
		}
	}
	lines := table(t, s, TableOrderLine).Rows
	if lines < 5*30_000*w || lines > 15*30_000*w || lines < 290_000*w || lines > 310_000*w {
		t.Errorf("%d order lines for %d warehouses, want about %d", lines, w, 300_000*w)
	}
}

// The same seed gives the same rows; another seed other rows.
func TestRowsFollowTheSeed(t *testing.T) {
	a, b, c := SchemaSeed(1, 5), SchemaSeed(1, 5), SchemaSeed(1, 6)
	for _, name := range []string{TableCustomer, TableOrderLine} {
		ta, tb, tc := table(t, a, name), table(t, b, name), table(t, c, name)
		ra, rb, rc := take(t, ta, ta.FillPart(0), 500), take(t, tb, tb.FillPart(0), 500), take(t, tc, tc.FillPart(0), 500)
		for _, r := range [][][]any{ra, rb, rc} {
			for _, row := range r {
				for i, v := range row {
					if _, ok := v.(time.Time); ok {
						row[i] = nil // the time of the call, not of the seed
					}
				}
			}
		}
		if !reflect.DeepEqual(ra, rb) {
			t.Errorf("%s: the same seed gave other rows", name)
		}
		if reflect.DeepEqual(ra, rc) {
			t.Errorf("%s: another seed gave the same rows", name)
		}
	}
}

// The customers (clause 4.3.3.1): 1 to 1000 of each district named from
// their number, the others from NURand with C_LOAD; 10% bad credit;
// the initial money exactly.
func TestCustomers(t *testing.T) {
	s := Schema(1)
	tb := table(t, s, TableCustomer)
	rows := drain(t, tb, tb.Fill())
	id, did, last, credit := colIndex(t, tb, "c_id"), colIndex(t, tb, "c_d_id"), colIndex(t, tb, "c_last"), colIndex(t, tb, "c_credit")
	bad := 0
	names := map[string]bool{}
	for n := 0; n < 1000; n++ {
		names[LastName(n)] = true
	}
	districts := map[int64]int{}
	for _, r := range rows {
		c := r[id].(int64)
		districts[r[did].(int64)]++
		if c <= NamedCustomers && r[last] != LastName(int(c-1)) {
			t.Fatalf("customer %d named %q, want %q", c, r[last], LastName(int(c-1)))
		}
		if !names[r[last].(string)] {
			t.Fatalf("customer %d named %q, not a name of three syllables", c, r[last])
		}
		if r[credit] == "BC" {
			bad++
		} else if r[credit] != "GC" {
			t.Fatalf("c_credit %q", r[credit])
		}
		for name, want := range map[string]string{"c_balance": "-10.00", "c_ytd_payment": "10.00", "c_credit_lim": "50000.00", "c_middle": "OE"} {
			if got := r[colIndex(t, tb, name)]; got != want {
				t.Fatalf("customer %d: %s = %v, want %s", c, name, got, want)
			}
		}
		if d := r[colIndex(t, tb, "c_discount")].(string); d < "0.0000" || d > "0.5000" || len(d) != 6 {
			t.Fatalf("c_discount %q", d)
		}
	}
	if len(districts) != 10 || districts[1] != 3000 || districts[10] != 3000 {
		t.Errorf("customers per district %v", districts)
	}
	if share := float64(bad) / float64(len(rows)); share < 0.09 || share > 0.11 {
		t.Errorf("%.3f of the customers have bad credit, want 0.10", share)
	}
}

// ORIGINAL in 10% of the items' and of the stock's data, at a random
// place; the data 26 to 50 characters.
func TestOriginalShare(t *testing.T) {
	s := Schema(1)
	for _, c := range []struct{ table, column string }{{TableItem, "i_data"}, {TableStock, "s_data"}} {
		tb := table(t, s, c.table)
		i := colIndex(t, tb, c.column)
		n, places := 0, map[int]bool{}
		rows := drain(t, tb, tb.Fill())
		for _, r := range rows {
			d := r[i].(string)
			if len(d) < 26 || len(d) > 50 {
				t.Fatalf("%s of %d characters", c.column, len(d))
			}
			if at := strings.Index(d, original); at >= 0 {
				n++
				places[at] = true
			}
		}
		if share := float64(n) / float64(len(rows)); share < 0.095 || share > 0.105 {
			t.Errorf("%s: ORIGINAL in %.4f of the rows, want 0.10", c.column, share)
		}
		if len(places) < 40 {
			t.Errorf("%s: ORIGINAL at only %d places", c.column, len(places))
		}
	}
}

// The orders of each district: their customers a permutation of the
// district's, the last 900 without carrier and new orders, their lines
// as many as o_ol_cnt says, in 5 to 15, undelivered with an amount,
// delivered at 0.00.
func TestOrdersAndTheirLines(t *testing.T) {
	s := Schema(1)
	ot, lt, nt := table(t, s, TableOrders), table(t, s, TableOrderLine), table(t, s, TableNewOrder)
	orders, lines, news := drain(t, ot, ot.Fill()), drain(t, lt, lt.Fill()), drain(t, nt, nt.Fill())
	type key struct{ d, o int64 }
	count := map[key]int64{}
	customers := map[int64]map[int64]bool{}
	var total, hist [16]int64
	for _, o := range orders {
		d, id, c, carrier, cnt := o[1].(int64), o[0].(int64), o[3].(int64), o[5], o[6].(int64)
		if customers[d] == nil {
			customers[d] = map[int64]bool{}
		}
		customers[d][c] = true
		if (id >= FirstNewOrder) != (carrier == nil) {
			t.Fatalf("order %d of district %d: carrier %v", id, d, carrier)
		}
		if carrier != nil && (carrier.(int64) < 1 || carrier.(int64) > 10) {
			t.Fatalf("carrier %v", carrier)
		}
		if cnt < MinLines || cnt > MaxLines {
			t.Fatalf("o_ol_cnt %d", cnt)
		}
		count[key{d, id}] = cnt
		hist[cnt]++
		total[0] += cnt
	}
	for d, cs := range customers {
		if len(cs) != CustomersPerDistrict {
			t.Errorf("district %d: orders of %d distinct customers, want %d", d, len(cs), CustomersPerDistrict)
		}
	}
	for n := MinLines; n <= MaxLines; n++ {
		if hist[n] < 2400 || hist[n] > 3100 { // 30,000 / 11 = 2727
			t.Errorf("%d orders of %d lines, want about 2727", hist[n], n)
		}
	}
	got := map[key]int64{}
	amount, delivery := colIndex(t, lt, "ol_amount"), colIndex(t, lt, "ol_delivery_d")
	for _, l := range lines {
		o, d := l[0].(int64), l[1].(int64)
		got[key{d, o}]++
		if l[3].(int64) != got[key{d, o}] {
			t.Fatalf("line %v of order %d numbered out of order", l[3], o)
		}
		if o < FirstNewOrder {
			if l[amount] != "0.00" || l[delivery] == nil {
				t.Fatalf("delivered order %d: line with amount %v, delivery %v", o, l[amount], l[delivery])
			}
		} else if l[delivery] != nil || l[amount] == "0.00" {
			t.Fatalf("new order %d: line with amount %v, delivery %v", o, l[amount], l[delivery])
		}
	}
	if !reflect.DeepEqual(got, count) {
		t.Error("the order lines are not o_ol_cnt per order")
	}
	if int64(len(lines)) != total[0] {
		t.Errorf("%d lines, sum(o_ol_cnt) = %d", len(lines), total[0])
	}
	if len(news) != 9000 || news[0][0] != int64(FirstNewOrder) || news[899][0] != int64(3000) {
		t.Errorf("%d new orders, from %v to %v", len(news), news[0][0], news[899][0])
	}
}

// The money of the warehouses and districts, and the districts' next
// order.
func TestWarehouseAndDistrictMoney(t *testing.T) {
	s := Schema(3)
	wt, dt := table(t, s, TableWarehouse), table(t, s, TableDistrict)
	for _, r := range drain(t, wt, wt.Fill()) {
		if r[colIndex(t, wt, "w_ytd")] != "300000.00" {
			t.Errorf("w_ytd %v", r[colIndex(t, wt, "w_ytd")])
		}
		if tax := r[colIndex(t, wt, "w_tax")].(string); tax < "0.0000" || tax > "0.2000" || len(tax) != 6 {
			t.Errorf("w_tax %q", tax)
		}
	}
	for _, r := range drain(t, dt, dt.Fill()) {
		if r[colIndex(t, dt, "d_ytd")] != "30000.00" || r[colIndex(t, dt, "d_next_o_id")] != int64(3001) {
			t.Errorf("district %v: d_ytd %v, d_next_o_id %v", r[0], r[colIndex(t, dt, "d_ytd")], r[colIndex(t, dt, "d_next_o_id")])
		}
	}
	// Every column has a value of its type, or NULL where the spec
	// leaves one.
	for _, tb := range s.Tables {
		row := take(t, tb, tb.FillPart(0), 1)[0]
		for i, c := range tb.Columns {
			ok := false
			switch v := row[i].(type) {
			case int64:
				ok = c.Type == dbms.Int
			case string:
				ok = (c.Type == dbms.Char && len(v) == c.Len) || (c.Type == dbms.Varchar && len(v) <= c.Len) || c.Type == dbms.Decimal
			case time.Time:
				ok = c.Type == dbms.Timestamp
			}
			if !ok {
				t.Errorf("%s.%s (%v): first value %v", tb.Name, c.Name, c.Type, fmt.Sprintf("%#v", row[i]))
			}
		}
	}
}

// BenchmarkWarehouse makes every row of one warehouse (the items too):
// what the generator costs a load, per warehouse.
func BenchmarkWarehouse(b *testing.B) {
	s := Schema(1)
	for b.Loop() {
		for _, tb := range s.Tables {
			row := make([]any, len(tb.Columns))
			src := tb.FillPart(0)
			for src.Next(row) {
			}
		}
	}
}
