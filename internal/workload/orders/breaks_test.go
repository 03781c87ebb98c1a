package orders

import (
	"context"
	"reflect"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// tiny is a consistent database of one warehouse and two districts, by
// hand: district 1 has orders 1 and 2 delivered (by customers 1 and 2)
// and order 3 new; district 2 order 1 delivered and order 2 new. Customer
// 1 of district 1 paid 30.00, customer 1 of district 2 paid 20.00. Only
// condition 11 fails: a district holds 2 or 1 delivered orders, not the
// 2100 of a fresh load.
var tiny = []string{
	"INSERT INTO warehouse (w_id, w_ytd) VALUES (1, 50.00)",
	"INSERT INTO district (d_id, d_w_id, d_ytd, d_next_o_id) VALUES (1, 1, 30.00, 4)",
	"INSERT INTO district (d_id, d_w_id, d_ytd, d_next_o_id) VALUES (2, 1, 20.00, 3)",
	"INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_amount) VALUES (1, 1, 1, 1, 1, 30.00)",
	"INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_amount) VALUES (1, 2, 1, 2, 1, 20.00)",
	"INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_carrier_id, o_ol_cnt) VALUES (1, 1, 1, 1, 5, 2)",
	"INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_carrier_id, o_ol_cnt) VALUES (2, 1, 1, 2, 3, 1)",
	"INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_carrier_id, o_ol_cnt) VALUES (3, 1, 1, 1, NULL, 1)",
	"INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_carrier_id, o_ol_cnt) VALUES (1, 2, 1, 1, 1, 1)",
	"INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_carrier_id, o_ol_cnt) VALUES (2, 2, 1, 1, NULL, 2)",
	"INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (3, 1, 1)",
	"INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (2, 2, 1)",
	"INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_delivery_d, ol_amount) VALUES (1, 1, 1, 1, CURRENT_TIMESTAMP, 12.50)",
	"INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_delivery_d, ol_amount) VALUES (1, 1, 1, 2, CURRENT_TIMESTAMP, 7.50)",
	"INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_delivery_d, ol_amount) VALUES (2, 1, 1, 1, CURRENT_TIMESTAMP, 5.25)",
	"INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_delivery_d, ol_amount) VALUES (3, 1, 1, 1, NULL, 99.99)",
	"INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_delivery_d, ol_amount) VALUES (1, 2, 1, 1, CURRENT_TIMESTAMP, 10.00)",
	"INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_delivery_d, ol_amount) VALUES (2, 2, 1, 1, NULL, 1.00)",
	"INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_delivery_d, ol_amount) VALUES (2, 2, 1, 2, NULL, 2.00)",
	// balance = delivered - paid; year-to-date payment = paid.
	"INSERT INTO customer (c_id, c_d_id, c_w_id, c_balance, c_ytd_payment) VALUES (1, 1, 1, -10.00, 30.00)",
	"INSERT INTO customer (c_id, c_d_id, c_w_id, c_balance, c_ytd_payment) VALUES (2, 1, 1, 5.25, 0.00)",
	"INSERT INTO customer (c_id, c_d_id, c_w_id, c_balance, c_ytd_payment) VALUES (1, 2, 1, -10.00, 20.00)",
}

// breaks each break the tiny database in one way and name the
// conditions that must then fail (11 always does).
var breaks = []struct {
	sql  string
	fail []int
}{
	{"", []int{11}},
	{"UPDATE warehouse SET w_ytd = 50.01", []int{1, 8, 11}},
	{"UPDATE district SET d_next_o_id = 5 WHERE d_id = 1", []int{2, 11}},
	{"INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (1, 1, 1)", []int{3, 5, 11}},
	{"DELETE FROM order_line WHERE ol_d_id = 2 AND ol_o_id = 2 AND ol_number = 2", []int{4, 6, 11}},
	{"UPDATE orders SET o_carrier_id = NULL WHERE o_d_id = 1 AND o_id = 2", []int{5, 7, 11}},
	{"UPDATE order_line SET ol_delivery_d = NULL WHERE ol_d_id = 1 AND ol_o_id = 2", []int{7, 10, 11, 12}},
	{"UPDATE district SET d_ytd = 29.99 WHERE d_id = 1", []int{1, 9, 11}},
	{"UPDATE customer SET c_balance = -9.99 WHERE c_id = 1 AND c_d_id = 1", []int{10, 11, 12}},
	{"UPDATE customer SET c_ytd_payment = 30.01 WHERE c_id = 1 AND c_d_id = 1", []int{11, 12}},
}

// checkEachBreak builds the tiny database once per break, breaks it, and
// checks that exactly the conditions named fail.
func checkEachBreak(t *testing.T, e dbms.Engine) {
	ctx := context.Background()
	for _, b := range breaks {
		for _, tb := range Tables() {
			if err := e.DropTable(ctx, tb.Name); err != nil {
				t.Fatal(err)
			}
			if err := e.CreateTable(ctx, tb); err != nil {
				t.Fatal(err)
			}
		}
		for _, st := range append(tiny, b.sql) {
			if st == "" {
				continue
			}
			if _, err := e.Exec(ctx, st); err != nil {
				t.Fatalf("%s: %v", st, err)
			}
		}
		rs, err := CheckConditions(ctx, e, AfterLoadConditions)
		if err != nil {
			t.Fatal(err)
		}
		if got := failed(rs); !reflect.DeepEqual(got, b.fail) {
			t.Errorf("after %q the conditions failing are %v, want %v", b.sql, got, b.fail)
			for _, r := range rs {
				t.Log(r)
			}
		}
		if r := rs[10]; r.Violations != 2 {
			t.Errorf("condition 11: %s", r)
		}
	}
}
