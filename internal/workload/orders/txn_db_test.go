package orders

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// A small database with the spec's tables and columns, built row by row
// by the test itself (independent of the workload's own generator), so
// that the transactions are tried against data whose every value the test
// knows: 2 warehouses, 10 districts each, 30 customers per district (10
// last names, 3 customers each), 100 items, 30 orders per district of
// which the last 9 are new orders.
var testDims = Dims{Warehouses: 2, Customers: 30, Items: 100, Names: 10}

const (
	testOrders    = 30 // orders per district
	testDelivered = 21 // orders 1..21 delivered, 22..30 new orders
)

func testCol(name string, t dbms.ColumnType, n ...int) dbms.Column {
	c := dbms.Column{Name: name, Type: t}
	if len(n) > 0 {
		c.Len = n[0]
	}
	if len(n) > 1 {
		c.Scale = n[1]
	}
	return c
}

// testTables are the nine tables with the column names and types of the
// spec's clause 1.3 (as go-tpc's MySQL DDL has them), and their keys.
func testTables() ([]dbms.Table, [][]string) {
	i, vc, ch, dec, ts := dbms.Int, dbms.Varchar, dbms.Char, dbms.Decimal, dbms.Timestamp
	address := func(p string) []dbms.Column {
		return []dbms.Column{testCol(p+"_street_1", vc, 20), testCol(p+"_street_2", vc, 20), testCol(p+"_city", vc, 20), testCol(p+"_state", ch, 2), testCol(p+"_zip", ch, 9)}
	}
	wh := []dbms.Column{testCol("w_id", i), testCol("w_name", vc, 10)}
	wh = append(append(wh, address("w")...), testCol("w_tax", dec, 4, 4), testCol("w_ytd", dec, 12, 2))
	di := []dbms.Column{testCol("d_id", i), testCol("d_w_id", i), testCol("d_name", vc, 10)}
	di = append(append(di, address("d")...), testCol("d_tax", dec, 4, 4), testCol("d_ytd", dec, 12, 2), testCol("d_next_o_id", i))
	cu := []dbms.Column{testCol("c_id", i), testCol("c_d_id", i), testCol("c_w_id", i), testCol("c_first", vc, 16), testCol("c_middle", ch, 2), testCol("c_last", vc, 16)}
	cu = append(append(cu, address("c")...), testCol("c_phone", ch, 16), testCol("c_since", ts), testCol("c_credit", ch, 2),
		testCol("c_credit_lim", dec, 12, 2), testCol("c_discount", dec, 4, 4), testCol("c_balance", dec, 12, 2), testCol("c_ytd_payment", dec, 12, 2),
		testCol("c_payment_cnt", i), testCol("c_delivery_cnt", i), testCol("c_data", vc, 500))
	st := []dbms.Column{testCol("s_i_id", i), testCol("s_w_id", i), testCol("s_quantity", i)}
	for d := 1; d <= DistrictsPerWarehouse; d++ {
		st = append(st, testCol(fmt.Sprintf("s_dist_%02d", d), ch, 24))
	}
	st = append(st, testCol("s_ytd", i), testCol("s_order_cnt", i), testCol("s_remote_cnt", i), testCol("s_data", vc, 50))
	tables := []dbms.Table{
		{Name: "warehouse", Columns: wh},
		{Name: "district", Columns: di},
		{Name: "customer", Columns: cu},
		{Name: "history", Columns: []dbms.Column{testCol("h_c_id", i), testCol("h_c_d_id", i), testCol("h_c_w_id", i), testCol("h_d_id", i), testCol("h_w_id", i),
			testCol("h_date", ts), testCol("h_amount", dec, 6, 2), testCol("h_data", vc, 24)}},
		{Name: "new_order", Columns: []dbms.Column{testCol("no_o_id", i), testCol("no_d_id", i), testCol("no_w_id", i)}},
		{Name: "orders", Columns: []dbms.Column{testCol("o_id", i), testCol("o_d_id", i), testCol("o_w_id", i), testCol("o_c_id", i), testCol("o_entry_d", ts),
			testCol("o_carrier_id", i), testCol("o_ol_cnt", i), testCol("o_all_local", i)}},
		{Name: "order_line", Columns: []dbms.Column{testCol("ol_o_id", i), testCol("ol_d_id", i), testCol("ol_w_id", i), testCol("ol_number", i), testCol("ol_i_id", i),
			testCol("ol_supply_w_id", i), testCol("ol_delivery_d", ts), testCol("ol_quantity", i), testCol("ol_amount", dec, 6, 2), testCol("ol_dist_info", ch, 24)}},
		{Name: "stock", Columns: st},
		{Name: "item", Columns: []dbms.Column{testCol("i_id", i), testCol("i_im_id", i), testCol("i_name", vc, 24), testCol("i_price", dec, 5, 2), testCol("i_data", vc, 50)}},
	}
	keys := [][]string{{"w_id"}, {"d_w_id", "d_id"}, {"c_w_id", "c_d_id", "c_id"}, nil, {"no_w_id", "no_d_id", "no_o_id"},
		{"o_w_id", "o_d_id", "o_id"}, {"ol_w_id", "ol_d_id", "ol_o_id", "ol_number"}, {"s_w_id", "s_i_id"}, {"i_id"}}
	return tables, keys
}

// testLetters is a random string of n upper-case letters: one alphabet in
// which every engine's collation sorts as bytes do, so that the test can
// sort first names itself.
func testLetters(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('A' + rng.IntN(26))
	}
	return string(b)
}

// buildTestDB creates and fills the test database on e.
func buildTestDB(t *testing.T, ctx context.Context, e dbms.Engine) {
	t.Helper()
	tables, keys := testTables()
	for i := len(tables) - 1; i >= 0; i-- {
		if err := e.DropTable(ctx, tables[i].Name); err != nil {
			t.Fatalf("drop %s: %v", tables[i].Name, err)
		}
	}
	for _, tb := range tables {
		if err := e.CreateTable(ctx, tb); err != nil {
			t.Fatalf("create %s: %v", tb.Name, err)
		}
	}
	tx := e.(dbms.Transactor)
	rng := rand.New(rand.NewPCG(30, 2))
	if err := tx.Begin(ctx, dbms.ReadCommitted); err != nil {
		t.Fatal(err)
	}
	ins := func(stmt string, args ...any) {
		t.Helper()
		if _, err := tx.ExecArgs(ctx, stmt, args...); err != nil {
			t.Fatalf("%s %v: %v", stmt, args, err)
		}
	}
	rate := func() string { return fmt.Sprintf("0.%04d", rng.IntN(2001)) }
	data := func(lo, hi int) string {
		s := testLetters(rng, lo+rng.IntN(hi-lo+1))
		if rng.IntN(10) == 0 {
			p := rng.IntN(len(s) - 8)
			s = s[:p] + "ORIGINAL" + s[p+8:]
		}
		return s
	}
	for it := int64(1); it <= testDims.Items; it++ {
		ins("INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES (?, ?, ?, ?, ?)",
			it, int64(1+rng.IntN(10000)), testLetters(rng, 14), formatCents(int64(100+rng.IntN(9901))), data(26, 50))
	}
	const addr = "'STREET1', 'STREET2', 'CITY', 'ST', '123411111'"
	for w := int64(1); w <= testDims.Warehouses; w++ {
		ins("INSERT INTO warehouse (w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, w_tax, w_ytd) VALUES (?, ?, "+addr+", ?, '300000.00')",
			w, fmt.Sprintf("WH%d", w), rate())
		for it := int64(1); it <= testDims.Items; it++ {
			args := []any{it, w, int64(10 + rng.IntN(91))}
			for d := 0; d < DistrictsPerWarehouse; d++ {
				args = append(args, testLetters(rng, 24))
			}
			args = append(args, data(26, 50))
			ins("INSERT INTO stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07,"+
				" s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, s_remote_cnt, s_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?)", args...)
		}
		for d := int64(1); d <= DistrictsPerWarehouse; d++ {
			ins("INSERT INTO district (d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, d_state, d_zip, d_tax, d_ytd, d_next_o_id)"+
				" VALUES (?, ?, ?, "+addr+", ?, '30000.00', ?)", d, w, fmt.Sprintf("D%d-%d", w, d), rate(), int64(testOrders+1))
			for c := int64(1); c <= testDims.Customers; c++ {
				credit := "GC"
				if c == 2 || rng.IntN(10) == 0 {
					credit = "BC"
				}
				ins("INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip,"+
					" c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data)"+
					" VALUES (?, ?, ?, ?, 'OE', ?, "+addr+", '1234567890123456', CURRENT_TIMESTAMP, ?, '50000.00', ?, '-10.00', '10.00', 1, 0, ?)",
					c, d, w, testLetters(rng, 8+rng.IntN(9)), lastName((c-1)%testDims.Names), credit, fmt.Sprintf("0.%04d", rng.IntN(5001)), testLetters(rng, 300+rng.IntN(201)))
				ins("INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP, '10.00', ?)",
					c, d, w, d, w, testLetters(rng, 12+rng.IntN(13)))
			}
			perm := rng.Perm(int(testDims.Customers))
			for o := int64(1); o <= testOrders; o++ {
				lines := int64(5 + rng.IntN(11))
				delivered := o <= testDelivered
				if delivered {
					ins("INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP, ?, ?, 1)",
						o, d, w, int64(perm[o-1]+1), int64(1+rng.IntN(10)), lines)
				} else {
					ins("INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP, ?, 1)",
						o, d, w, int64(perm[o-1]+1), lines)
					ins("INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)", o, d, w)
				}
				for n := int64(1); n <= lines; n++ {
					item := int64(1 + rng.IntN(int(testDims.Items)))
					if delivered {
						ins("INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)"+
							" VALUES (?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP, 5, '0.00', ?)", o, d, w, n, item, w, testLetters(rng, 24))
					} else {
						ins("INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info)"+
							" VALUES (?, ?, ?, ?, ?, ?, 5, ?, ?)", o, d, w, n, item, w, formatCents(int64(1+rng.IntN(999999))), testLetters(rng, 24))
					}
				}
			}
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatalf("commit the test database: %v", err)
	}
	if k, ok := e.(dbms.Keys); ok {
		for i, tb := range tables {
			if keys[i] == nil {
				continue
			}
			if err := k.AddPrimaryKey(ctx, tb.Name, keys[i]...); err != nil && !errors.Is(err, dbms.ErrNotSupported) {
				t.Fatalf("primary key of %s: %v", tb.Name, err)
			}
		}
	}
}

// testRows runs q on e and fails the test on an error.
func testRows(t *testing.T, ctx context.Context, e dbms.Engine, q string) [][]string {
	t.Helper()
	r, err := e.QueryRows(ctx, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return r
}

// testNum reads an integer or an amount in cents from a result (NULL: 0).
func testNum(t *testing.T, s string, scale int) int64 {
	t.Helper()
	if s == "" {
		return 0
	}
	v, err := parseFixed(s, scale)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// testCount is the one integer q returns.
func testCount(t *testing.T, ctx context.Context, e dbms.Engine, q string) int64 {
	t.Helper()
	r := testRows(t, ctx, e, q)
	if len(r) != 1 || len(r[0]) != 1 {
		t.Fatalf("%s: %v, want one value", q, r)
	}
	return testNum(t, r[0][0], 0)
}

// testConsistent checks the consistency conditions 1-4 and 12 of clause
// 3.3.2 on e's database, in SQL of the test's own.
func testConsistent(t *testing.T, ctx context.Context, e dbms.Engine) {
	t.Helper()
	// 1: W_YTD = sum(D_YTD).
	for _, r := range testRows(t, ctx, e, "SELECT w_id, w_ytd, (SELECT SUM(d_ytd) FROM district WHERE d_w_id = w_id) FROM warehouse") {
		if testNum(t, r[1], 2) != testNum(t, r[2], 2) {
			t.Errorf("condition 1: warehouse %s: w_ytd %s, sum(d_ytd) %s", r[0], r[1], r[2])
		}
	}
	// 2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID), the last where the
	// district has new orders.
	for _, r := range testRows(t, ctx, e, "SELECT d_w_id, d_id, d_next_o_id, (SELECT MAX(o_id) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id),"+
		" (SELECT MAX(no_o_id) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id) FROM district") {
		next := testNum(t, r[2], 0)
		if testNum(t, r[3], 0) != next-1 || (r[4] != "" && testNum(t, r[4], 0) != next-1) {
			t.Errorf("condition 2: district %s of warehouse %s: d_next_o_id %s, max(o_id) %s, max(no_o_id) %s", r[1], r[0], r[2], r[3], r[4])
		}
	}
	// 3: max(NO_O_ID) - min(NO_O_ID) + 1 = the district's new orders.
	for _, r := range testRows(t, ctx, e, "SELECT no_w_id, no_d_id, COUNT(*), MAX(no_o_id), MIN(no_o_id) FROM new_order GROUP BY no_w_id, no_d_id") {
		if testNum(t, r[3], 0)-testNum(t, r[4], 0)+1 != testNum(t, r[2], 0) {
			t.Errorf("condition 3: district %s of warehouse %s: %s new orders from %s to %s", r[1], r[0], r[2], r[4], r[3])
		}
	}
	// 4: sum(O_OL_CNT) = the district's order lines.
	lines := map[[2]string]string{}
	for _, r := range testRows(t, ctx, e, "SELECT ol_w_id, ol_d_id, COUNT(*) FROM order_line GROUP BY ol_w_id, ol_d_id") {
		lines[[2]string{r[0], r[1]}] = r[2]
	}
	for _, r := range testRows(t, ctx, e, "SELECT o_w_id, o_d_id, SUM(o_ol_cnt) FROM orders GROUP BY o_w_id, o_d_id") {
		if got := lines[[2]string{r[0], r[1]}]; testNum(t, got, 0) != testNum(t, r[2], 0) {
			t.Errorf("condition 4: district %s of warehouse %s: sum(o_ol_cnt) %s, %s order lines", r[1], r[0], r[2], got)
		}
	}
	// 12: C_BALANCE + C_YTD_PAYMENT = sum(OL_AMOUNT) of the customer's
	// delivered lines.
	for _, r := range testRows(t, ctx, e, "SELECT c_w_id, c_d_id, c_id, c_balance, c_ytd_payment, (SELECT SUM(ol_amount) FROM orders, order_line"+
		" WHERE o_w_id = c_w_id AND o_d_id = c_d_id AND o_c_id = c_id AND ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id"+
		" AND ol_delivery_d IS NOT NULL) FROM customer") {
		if testNum(t, r[3], 2)+testNum(t, r[4], 2) != testNum(t, r[5], 2) {
			t.Errorf("condition 12: customer %s of district %s of warehouse %s: c_balance %s + c_ytd_payment %s, delivered %s", r[2], r[1], r[0], r[3], r[4], r[5])
		}
	}
}
