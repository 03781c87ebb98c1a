package orders

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	_ "github.com/dbgauge/dbgauge/internal/dbms/all"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// The transactions on each engine: every type's effects on a database the
// test built and knows, a mix run by one client and by three at once,
// and consistency conditions 1-4 and 12 after each.

func TestTransactionsSQLite(t *testing.T) {
	exercise(t, testEngine(t, "sqlite:"+filepath.Join(t.TempDir(), "o.db")))
}

func TestTransactionsDuckDB(t *testing.T) {
	exercise(t, testEngine(t, "duckdb:"+filepath.Join(t.TempDir(), "o.duckdb")))
}

func TestTransactionsPostgres(t *testing.T) {
	exercise(t, testEngine(t, servertest.Start(t, "postgres", server.Options{}).URL))
}

func TestTransactionsMariaDB(t *testing.T) {
	exercise(t, testEngine(t, servertest.Start(t, "mariadb", server.Options{}).URL))
}

func TestTransactionsFirebird(t *testing.T) {
	exercise(t, testEngine(t, servertest.Start(t, "firebird", server.Options{}).URL))
}

// opener opens sessions on the test's database, closed at the test's end.
type opener struct {
	ctx  context.Context
	open func() dbms.Engine
}

func testEngine(t *testing.T, url string) opener {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	return opener{ctx, func() dbms.Engine {
		e, err := dbms.Open(ctx, url)
		if err != nil {
			t.Fatalf("open %s: %v", url, err)
		}
		t.Cleanup(func() { e.Close() })
		return e
	}}
}

func exercise(t *testing.T, o opener) {
	ctx, ctl := o.ctx, o.open()
	buildTestDB(t, ctx, ctl)
	testConsistent(t, ctx, ctl)
	if t.Failed() {
		t.Fatal("the test database is not consistent before any transaction")
	}
	for _, prepare := range []bool{false, true} {
		e, e2 := o.open(), o.open()
		c := testClient(t, ctx, e, 0, 1, prepare)
		if err := c.Setup(ctx, e2.(dbms.Transactor)); err != nil {
			t.Fatalf("setup of a second session: %v", err)
		}
		name := map[bool]string{false: "Text", true: "Prepared"}[prepare]
		t.Run(name+"/NewOrder", func(t *testing.T) { checkNewOrder(t, ctx, ctl, e, c) })
		t.Run(name+"/Rollback", func(t *testing.T) { checkRollback(t, ctx, ctl, e, c) })
		t.Run(name+"/PaymentByName", func(t *testing.T) { checkPaymentByName(t, ctx, ctl, e, c) })
		t.Run(name+"/PaymentBadCredit", func(t *testing.T) { checkBadCredit(t, ctx, ctl, e, c) })
		t.Run(name+"/OrderStatus", func(t *testing.T) { checkOrderStatus(t, ctx, ctl, e, c) })
		t.Run(name+"/StockLevel", func(t *testing.T) { checkStockLevel(t, ctx, ctl, e, c) })
		t.Run(name+"/Mix", func(t *testing.T) { checkMix(t, ctx, ctl, c, e, e2) })
		testConsistent(t, ctx, ctl)
	}
	// Delivery empties warehouse 2's new orders: after the others.
	e := o.open()
	t.Run("Delivery", func(t *testing.T) { checkDelivery(t, ctx, ctl, e, testClient(t, ctx, e, 0, 1, true)) })
	testConsistent(t, ctx, ctl)
	for _, iso := range []dbms.Isolation{dbms.RepeatableRead, dbms.ReadCommitted} {
		t.Run("Concurrent/"+iso.String(), func(t *testing.T) { checkConcurrent(t, ctx, ctl, o, iso) })
		testConsistent(t, ctx, ctl)
	}
}

// testClient is client i of n on e, set up.
func testClient(t *testing.T, ctx context.Context, e dbms.Engine, i, n int, prepare bool, iso ...dbms.Isolation) *Client {
	t.Helper()
	cfg := workload.ClientConfig{Prepare: prepare, Isolation: append(iso, dbms.RepeatableRead)[0], Client: i, Clients: n, Scale: testDims.Warehouses, Seed: 7}
	c := NewClient(cfg, ClientOptions{Dims: testDims, C: RunConstants(7, 100)})
	if err := c.Setup(ctx, e.(dbms.Transactor)); err != nil {
		t.Fatalf("setup: %v", err)
	}
	return c
}

// wantOne fails the test unless q, a count, is 1: the row it looks
// for is there, once.
func wantOne(t *testing.T, ctx context.Context, e dbms.Engine, what, q string) {
	t.Helper()
	if n := testCount(t, ctx, e, q); n != 1 {
		t.Errorf("%s: %d rows, want 1 (%s)", what, n, q)
	}
}

type stockRow struct{ quantity, ytd, orders, remote int64 }

func readStock(t *testing.T, ctx context.Context, e dbms.Engine, w, i int64) stockRow {
	r := testRows(t, ctx, e, fmt.Sprintf("SELECT s_quantity, s_ytd, s_order_cnt, s_remote_cnt FROM stock WHERE s_w_id = %d AND s_i_id = %d", w, i))
	return stockRow{testNum(t, r[0][0], 0), testNum(t, r[0][1], 0), testNum(t, r[0][2], 0), testNum(t, r[0][3], 0)}
}

func tableCounts(t *testing.T, ctx context.Context, e dbms.Engine) map[string]int64 {
	out := map[string]int64{}
	for _, tb := range []string{"orders", "new_order", "order_line", "history"} {
		out[tb] = testCount(t, ctx, e, "SELECT COUNT(*) FROM "+tb)
	}
	out["next"] = testCount(t, ctx, e, "SELECT SUM(d_next_o_id) FROM district")
	out["s_ytd"] = testCount(t, ctx, e, "SELECT SUM(s_ytd) FROM stock")
	return out
}

// checkNewOrder: one order with a remote line adds the order, its new
// order and its lines, takes the district's next number, and updates
// each line's stock by the quantity rule; each line's amount is its
// quantity times the item's price, exactly.
func checkNewOrder(t *testing.T, ctx context.Context, ctl, e dbms.Engine, c *Client) {
	rng := rand.New(rand.NewPCG(4, 4))
	for c.no.draw(rng, testDims, c.k, 1); c.no.rollback || c.no.remote == 0; {
		c.no.draw(rng, testDims, c.k, 1)
	}
	in := c.no
	next := testCount(t, ctx, ctl, fmt.Sprintf("SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = %d", in.d))
	before := tableCounts(t, ctx, ctl)
	stock := map[[2]int64]stockRow{}
	for _, l := range in.lines[:in.n] {
		stock[[2]int64{l.supply, l.item}] = readStock(t, ctx, ctl, l.supply, l.item)
	}
	var out NewOrderResult
	if err := c.runNewOrder(ctx, e.(dbms.Transactor), &out); err != nil {
		t.Fatalf("new-order: %v", err)
	}
	if out.OrderID != next {
		t.Errorf("order number %d, want the district's next, %d", out.OrderID, next)
	}
	after := tableCounts(t, ctx, ctl)
	for tb, d := range map[string]int64{"orders": 1, "new_order": 1, "order_line": int64(in.n), "next": 1, "history": 0} {
		if after[tb]-before[tb] != d {
			t.Errorf("%s grew by %d, want %d", tb, after[tb]-before[tb], d)
		}
	}
	wantOne(t, ctx, ctl, "the order", fmt.Sprintf("SELECT COUNT(*) FROM orders WHERE o_w_id = 1 AND o_d_id = %d AND o_id = %d AND o_c_id = %d"+
		" AND o_ol_cnt = %d AND o_all_local = 0 AND o_carrier_id IS NULL AND o_entry_d IS NOT NULL", in.d, next, in.c, in.n))
	wantOne(t, ctx, ctl, "the new order", fmt.Sprintf("SELECT COUNT(*) FROM new_order WHERE no_w_id = 1 AND no_d_id = %d AND no_o_id = %d", in.d, next))
	lines := testRows(t, ctx, ctl, fmt.Sprintf("SELECT ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, i_price, ol_dist_info, s_dist_%02d"+
		" FROM order_line, item, stock WHERE ol_w_id = 1 AND ol_d_id = %d AND ol_o_id = %d AND i_id = ol_i_id AND s_w_id = ol_supply_w_id AND s_i_id = ol_i_id"+
		" AND ol_delivery_d IS NULL", in.d, in.d, next))
	if len(lines) != in.n {
		t.Fatalf("%d lines with their items and stock, want %d", len(lines), in.n)
	}
	for _, r := range lines {
		number, qty, amount, price := testNum(t, r[0], 0), testNum(t, r[3], 0), testNum(t, r[4], 2), testNum(t, r[5], 2)
		if amount != qty*price || out.Amounts[number-1] != amount {
			t.Errorf("line %s: ol_amount %s, want %d x %s (client says %d cents)", r[0], r[4], qty, r[5], out.Amounts[number-1])
		}
		if strings.TrimSpace(r[6]) != strings.TrimSpace(r[7]) {
			t.Errorf("line %s: ol_dist_info %q, stock's s_dist_%02d %q", r[0], r[6], in.d, r[7])
		}
	}
	for _, l := range in.lines[:in.n] {
		was, now := stock[[2]int64{l.supply, l.item}], readStock(t, ctx, ctl, l.supply, l.item)
		want := was.quantity - l.quantity
		if want < 10 {
			want += 91
		}
		remote := int64(0)
		if l.remote {
			remote = 1
		}
		if now != (stockRow{want, was.ytd + l.quantity, was.orders + 1, was.remote + remote}) {
			t.Errorf("stock of item %d at warehouse %d: %+v after %+v, ordered %d (remote %v)", l.item, l.supply, now, was, l.quantity, l.remote)
		}
	}
}

// checkRollback: a New-Order whose last item is unused rolls back and
// leaves nothing behind.
func checkRollback(t *testing.T, ctx context.Context, ctl, e dbms.Engine, c *Client) {
	rng := rand.New(rand.NewPCG(5, 5))
	for c.no.draw(rng, testDims, c.k, 1); !c.no.rollback; {
		c.no.draw(rng, testDims, c.k, 1)
	}
	before := tableCounts(t, ctx, ctl)
	c.pending = Audit{}
	err := c.newOrder(ctx, e.(dbms.Transactor))
	if !errors.Is(err, ErrRollback) {
		t.Fatalf("new-order with an unused item: %v, want ErrRollback", err)
	}
	if tq := e.(dbms.TextQuerier); tq.InTransaction() {
		t.Error("the rolled back transaction is still open")
	}
	if after := tableCounts(t, ctx, ctl); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("a rolled back new-order changed the database: %v, before %v", after, before)
	}
	if c.pending.Rollbacks != 1 || c.pending.NewOrders != 1 {
		t.Errorf("counted %+v, want one new-order rolled back", c.pending)
	}
}

type customerRow struct{ balance, ytd, payments int64 }

func readCustomer(t *testing.T, ctx context.Context, e dbms.Engine, w, d, c int64) (customerRow, string, string) {
	r := testRows(t, ctx, e, fmt.Sprintf("SELECT c_balance, c_ytd_payment, c_payment_cnt, c_first, c_data FROM customer WHERE c_w_id = %d AND c_d_id = %d AND c_id = %d", w, d, c))
	return customerRow{testNum(t, r[0][0], 2), testNum(t, r[0][1], 2), testNum(t, r[0][2], 0)}, r[0][3], r[0][4]
}

func ytd(t *testing.T, ctx context.Context, e dbms.Engine, w, d int64) (int64, int64) {
	r := testRows(t, ctx, e, fmt.Sprintf("SELECT w_ytd, d_ytd FROM warehouse, district WHERE w_id = %d AND d_w_id = w_id AND d_id = %d", w, d))
	return testNum(t, r[0][0], 2), testNum(t, r[0][1], 2)
}

// checkPaymentByName: a payment by last name pays the middle one of the
// customers of that name sorted by first name (the test sorts them
// itself: their first names are upper-case letters only), and the
// warehouse, the district and the history take the amount.
func checkPaymentByName(t *testing.T, ctx context.Context, ctl, e dbms.Engine, c *Client) {
	const w, d = 1, 3
	name := lastName(1) // customers 2, 12 and 22 of every district
	type cust struct {
		id    int64
		first string
		row   customerRow
	}
	var named []cust
	for _, id := range []int64{2, 12, 22} {
		row, first, _ := readCustomer(t, ctx, ctl, w, d, id)
		named = append(named, cust{id, first, row})
	}
	sort.Slice(named, func(i, j int) bool { return named[i].first < named[j].first })
	wYtd, dYtd := ytd(t, ctx, ctl, w, d)
	hist := testCount(t, ctx, ctl, "SELECT COUNT(*) FROM history")
	const histQ = "SELECT COUNT(*) FROM history WHERE h_c_id = %d AND h_c_d_id = 3 AND h_c_w_id = 1 AND h_d_id = 3 AND h_w_id = 1" +
		" AND h_amount = 123.45 AND h_data = 'WH1    D1-3'"
	paid := testCount(t, ctx, ctl, fmt.Sprintf(histQ, named[1].id))
	c.pay = paymentIn{w: w, d: d, cw: w, cd: d, cust: customerKey{byName: true, last: name}, amount: 123_45}
	if err := c.payment(ctx, e.(dbms.Transactor)); err != nil {
		t.Fatalf("payment: %v", err)
	}
	for i, n := range named {
		now, _, _ := readCustomer(t, ctx, ctl, w, d, n.id)
		want := n.row
		if i == 1 {
			want = customerRow{n.row.balance - 123_45, n.row.ytd + 123_45, n.row.payments + 1}
		}
		if now != want {
			t.Errorf("customer %d (%s, #%d of %s by first name): %+v, want %+v", n.id, n.first, i+1, name, now, want)
		}
	}
	if w2, d2 := ytd(t, ctx, ctl, w, d); w2 != wYtd+123_45 || d2 != dYtd+123_45 {
		t.Errorf("w_ytd %d, d_ytd %d after paying 123.45 on %d, %d", w2, d2, wYtd, dYtd)
	}
	if h := testCount(t, ctx, ctl, "SELECT COUNT(*) FROM history"); h != hist+1 {
		t.Errorf("history has %d rows, want %d", h, hist+1)
	}
	if n := testCount(t, ctx, ctl, fmt.Sprintf(histQ, named[1].id)); n != paid+1 {
		t.Errorf("the history has %d rows of this payment, want %d", n, paid+1)
	}
}

// checkBadCredit: a remote payment by number to a customer of bad credit
// puts the payment at the left of its C_DATA, which stays 500 long at
// most; the home warehouse and district take the amount.
func checkBadCredit(t *testing.T, ctx context.Context, ctl, e dbms.Engine, c *Client) {
	before, _, data := readCustomer(t, ctx, ctl, 2, 4, 2)
	wYtd, dYtd := ytd(t, ctx, ctl, 1, 5)
	c.pay = paymentIn{w: 1, d: 5, cw: 2, cd: 4, cust: customerKey{c: 2}, amount: 5000_00, remote: true}
	c.pending = Audit{}
	if err := c.payment(ctx, e.(dbms.Transactor)); err != nil {
		t.Fatalf("payment: %v", err)
	}
	now, _, newData := readCustomer(t, ctx, ctl, 2, 4, 2)
	if now != (customerRow{before.balance - 5000_00, before.ytd + 5000_00, before.payments + 1}) {
		t.Errorf("customer: %+v after %+v", now, before)
	}
	want := "2 4 2 5 1 5000.00 | " + data
	if len(want) > 500 {
		want = want[:500]
	}
	if newData != strings.TrimRight(want, " ") {
		t.Errorf("c_data %q, want %q", newData, want)
	}
	if w2, d2 := ytd(t, ctx, ctl, 1, 5); w2 != wYtd+5000_00 || d2 != dYtd+5000_00 {
		t.Errorf("home w_ytd %d, d_ytd %d after paying 5000.00 on %d, %d", w2, d2, wYtd, dYtd)
	}
	if c.pending.RemotePayments != 1 {
		t.Errorf("counted %+v, want a remote payment", c.pending)
	}
}

// checkOrderStatus: the customer's last order and its lines are found,
// by number and by name.
func checkOrderStatus(t *testing.T, ctx context.Context, ctl, e dbms.Engine, c *Client) {
	for _, ck := range []customerKey{{c: 7}, {byName: true, last: lastName(4)}} {
		c.os = orderStatusIn{w: 2, d: 6, cust: ck}
		if err := c.orderStatus(ctx, e.(dbms.Transactor)); err != nil {
			t.Fatalf("order-status of %+v: %v", ck, err)
		}
		if ck.byName {
			continue
		}
		r := testRows(t, ctx, ctl, "SELECT o_ol_cnt FROM orders WHERE o_w_id = 2 AND o_d_id = 6 AND o_c_id = 7 ORDER BY o_id DESC")
		if n := testNum(t, r[0][0], 0); int64(len(c.res.Rows)) != n {
			t.Errorf("order-status read %d lines of the last order, which has %d", len(c.res.Rows), n)
		}
	}
}

// checkStockLevel: the count is what the test's own query finds, for
// every threshold and a few districts; some are not zero.
func checkStockLevel(t *testing.T, ctx context.Context, ctl, e dbms.Engine, c *Client) {
	total := int64(0)
	for d := int64(1); d <= 3; d++ {
		next := testCount(t, ctx, ctl, fmt.Sprintf("SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = %d", d))
		for th := int64(10); th <= 20; th++ {
			c.sl = stockLevelIn{w: 1, d: d, threshold: th}
			if err := c.stockLevel(ctx, e.(dbms.Transactor)); err != nil {
				t.Fatalf("stock-level: %v", err)
			}
			want := testCount(t, ctx, ctl, fmt.Sprintf("SELECT COUNT(*) FROM stock WHERE s_w_id = 1 AND s_quantity < %d AND s_i_id IN"+
				" (SELECT ol_i_id FROM order_line WHERE ol_w_id = 1 AND ol_d_id = %d AND ol_o_id >= %d AND ol_o_id < %d)", th, d, next-20, next))
			if c.lowStock != want {
				t.Errorf("district %d, threshold %d: %d items low, want %d", d, th, c.lowStock, want)
			}
			total += want
		}
	}
	if total == 0 {
		t.Error("no stock below any threshold: the check saw nothing")
	}
}

// checkDelivery: a delivery of warehouse 2 removes each district's
// oldest new order, sets its carrier and its lines' delivery date, and
// credits its customer with the lines' sum; deliveries then empty the
// warehouse's new orders, and the next one skips all ten districts.
func checkDelivery(t *testing.T, ctx context.Context, ctl, e dbms.Engine, c *Client) {
	type district struct {
		oldest, cust, sum, left int64
		row                     customerRow
		deliveries              int64
	}
	var ds [DistrictsPerWarehouse + 1]district
	for d := int64(1); d <= DistrictsPerWarehouse; d++ {
		x := &ds[d]
		x.oldest = testCount(t, ctx, ctl, fmt.Sprintf("SELECT MIN(no_o_id) FROM new_order WHERE no_w_id = 2 AND no_d_id = %d", d))
		x.left = testCount(t, ctx, ctl, fmt.Sprintf("SELECT COUNT(*) FROM new_order WHERE no_w_id = 2 AND no_d_id = %d", d))
		x.cust = testCount(t, ctx, ctl, fmt.Sprintf("SELECT o_c_id FROM orders WHERE o_w_id = 2 AND o_d_id = %d AND o_id = %d", d, x.oldest))
		r := testRows(t, ctx, ctl, fmt.Sprintf("SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = 2 AND ol_d_id = %d AND ol_o_id = %d", d, x.oldest))
		x.sum = testNum(t, r[0][0], 2)
		x.row, _, _ = readCustomer(t, ctx, ctl, 2, d, x.cust)
		x.deliveries = testCount(t, ctx, ctl, fmt.Sprintf("SELECT c_delivery_cnt FROM customer WHERE c_w_id = 2 AND c_d_id = %d AND c_id = %d", d, x.cust))
	}
	c.del = deliveryIn{w: 2, carrier: 7}
	c.pending = Audit{}
	if err := c.delivery(ctx, e.(dbms.Transactor)); err != nil {
		t.Fatalf("delivery: %v", err)
	}
	if c.pending.SkippedDistricts != 0 {
		t.Errorf("skipped %d districts, all had new orders", c.pending.SkippedDistricts)
	}
	for d := int64(1); d <= DistrictsPerWarehouse; d++ {
		x := &ds[d]
		if n := testCount(t, ctx, ctl, fmt.Sprintf("SELECT COUNT(*) FROM new_order WHERE no_w_id = 2 AND no_d_id = %d AND no_o_id <= %d", d, x.oldest)); n != 0 {
			t.Errorf("district %d: the oldest new order %d is still there", d, x.oldest)
		}
		if n := testCount(t, ctx, ctl, fmt.Sprintf("SELECT COUNT(*) FROM new_order WHERE no_w_id = 2 AND no_d_id = %d", d)); n != x.left-1 {
			t.Errorf("district %d: %d new orders left of %d", d, n, x.left)
		}
		wantOne(t, ctx, ctl, "the delivered order", fmt.Sprintf("SELECT COUNT(*) FROM orders WHERE o_w_id = 2 AND o_d_id = %d AND o_id = %d AND o_carrier_id = 7", d, x.oldest))
		if n := testCount(t, ctx, ctl, fmt.Sprintf("SELECT COUNT(*) FROM order_line WHERE ol_w_id = 2 AND ol_d_id = %d AND ol_o_id = %d AND ol_delivery_d IS NULL", d, x.oldest)); n != 0 {
			t.Errorf("district %d: %d lines of order %d undelivered", d, n, x.oldest)
		}
		now, _, _ := readCustomer(t, ctx, ctl, 2, d, x.cust)
		if now != (customerRow{x.row.balance + x.sum, x.row.ytd, x.row.payments}) {
			t.Errorf("district %d: customer %d %+v after %+v and a delivery of %d cents", d, x.cust, now, x.row, x.sum)
		}
		if n := testCount(t, ctx, ctl, fmt.Sprintf("SELECT c_delivery_cnt FROM customer WHERE c_w_id = 2 AND c_d_id = %d AND c_id = %d", d, x.cust)); n != x.deliveries+1 {
			t.Errorf("district %d: c_delivery_cnt %d after %d", d, n, x.deliveries)
		}
	}
	left := testCount(t, ctx, ctl, "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM new_order WHERE no_w_id = 2 GROUP BY no_d_id) x")
	for i := int64(0); i < left; i++ {
		if err := c.delivery(ctx, e.(dbms.Transactor)); err != nil {
			t.Fatalf("delivery: %v", err)
		}
	}
	if n := testCount(t, ctx, ctl, "SELECT COUNT(*) FROM new_order WHERE no_w_id = 2"); n != 0 {
		t.Fatalf("%d new orders left in warehouse 2 after %d more deliveries", n, left)
	}
	c.pending = Audit{}
	if err := c.delivery(ctx, e.(dbms.Transactor)); err != nil {
		t.Fatalf("delivery: %v", err)
	}
	if c.pending.SkippedDistricts != DistrictsPerWarehouse {
		t.Errorf("a delivery on no new order skipped %d districts, want %d", c.pending.SkippedDistricts, DistrictsPerWarehouse)
	}
}

// runOne runs one transaction through Run, repeating it after a
// retryable failure as the driver does; ErrRollback is a result. Each
// repetition waits a little, more with each one, for a random time: on
// an engine that fails a conflicting write at once rather than making it
// wait (DuckDB), two clients that begin again at once can fail each other
// time after time (seen here: 100 in a row).
func runOne(t *testing.T, ctx context.Context, c *Client, s *workload.Session) (int, error) {
	for s.Attempt = 0; ; s.Attempt++ {
		typ, err := c.Run(ctx, s)
		if err == nil || errors.Is(err, ErrRollback) {
			s.Retries += s.Attempt
			return typ, err
		}
		s.Tx.Rollback(ctx)
		if !dbms.Classify(err).Retryable() || s.Attempt == 100 {
			return typ, fmt.Errorf("%s (attempt %d): %w", TxnNames[typ], s.Attempt, err)
		}
		time.Sleep(time.Duration(rand.Int64N(int64(min(s.Attempt+1, 10)) * int64(time.Millisecond))))
	}
}

// checkMix runs the default mix on one client, each transaction on the
// next of its sessions (as --connections has a thread do): every
// transaction completes, and the tables grow as the client's counts say.
func checkMix(t *testing.T, ctx context.Context, ctl dbms.Engine, c *Client, sessions ...dbms.Engine) {
	before, audit := tableCounts(t, ctx, ctl), c.Audit()
	s := &workload.Session{Rand: rand.New(rand.NewPCG(11, 12)), Scale: testDims.Warehouses}
	var types [numTypes]int64
	const n = 300
	for i := 0; i < n; i++ {
		e := sessions[i%len(sessions)]
		s.Tx, s.Engine = e.(dbms.Transactor), e
		typ, err := runOne(t, ctx, c, s)
		if err != nil && !errors.Is(err, ErrRollback) {
			t.Fatal(err)
		}
		types[typ]++
	}
	a := c.Audit()
	a.Sub(audit)
	checkAudit(t, a, types, n)
	checkGrowth(t, before, tableCounts(t, ctx, ctl), a)
}

// Sub is the test's: the counts of a since b.
func (a *Audit) Sub(b Audit) {
	bs := b.counts()
	for i, p := range a.counts() {
		*p -= *bs[i]
	}
}

// checkAudit: the counts agree with the types Run said it ran, and the
// mix and the shares are about the spec's (loose bounds: a few hundred
// transactions).
func checkAudit(t *testing.T, a Audit, types [numTypes]int64, n int64) {
	t.Helper()
	got := [numTypes]int64{a.NewOrders, a.Payments, a.OrderStatuses, a.Deliveries, a.StockLevels}
	if got != types {
		t.Errorf("audit counts %v per type, Run returned %v", got, types)
	}
	if types[NewOrder] < n/3 || types[Payment] < n/3 {
		t.Errorf("mix %v of %d: far from 45/43/4/4/4", types, n)
	}
	if lines := float64(a.Lines) / float64(a.NewOrders); lines < 8.5 || lines > 11.5 {
		t.Errorf("%.2f lines per order", lines)
	}
	if byName := float64(a.PaymentsByName) / float64(a.Payments); byName < 0.45 || byName > 0.75 {
		t.Errorf("%.2f of the payments by last name", byName)
	}
	if a.RemotePayments == 0 || a.RemotePayments > a.Payments/3 {
		t.Errorf("%d remote payments of %d", a.RemotePayments, a.Payments)
	}
}

// checkGrowth: the tables grew by what the committed transactions add.
func checkGrowth(t *testing.T, before, after map[string]int64, a Audit) {
	t.Helper()
	committed := a.NewOrders - a.Rollbacks
	delivered := a.Deliveries*DistrictsPerWarehouse - a.SkippedDistricts
	for tb, want := range map[string]int64{"orders": committed, "next": committed, "history": a.Payments, "new_order": committed - delivered} {
		if got := after[tb] - before[tb]; got != want {
			t.Errorf("%s grew by %d, want %d (%+v)", tb, got, want, a)
		}
	}
}

// checkConcurrent runs three clients at once at isolation level iso, on
// sessions of their own, repeating what the engine failed as a
// serialization failure or a deadlock; nothing else may fail.
func checkConcurrent(t *testing.T, ctx context.Context, ctl dbms.Engine, o opener, iso dbms.Isolation) {
	concurrently(t, ctx, ctl, o, func(e dbms.Engine, i, n int) *Client { return testClient(t, ctx, e, i, n, true, iso) })
}

// concurrently runs three clients made by client at once, on sessions of
// their own, each 60 transactions, repeating what the engine failed as a
// serialization failure or a deadlock: nothing else may fail, and the
// tables grow as the clients' counts say.
func concurrently(t *testing.T, ctx context.Context, ctl dbms.Engine, o opener, client func(e dbms.Engine, i, n int) *Client) {
	before := tableCounts(t, ctx, ctl)
	const clients, n = 3, 60
	var wg sync.WaitGroup
	audits := make([]Audit, clients)
	errs := make([]error, clients)
	types := make([][numTypes]int64, clients)
	sessions := make([]*workload.Session, clients)
	for i := 0; i < clients; i++ {
		e := o.open()
		c := client(e, i, clients)
		s := &workload.Session{Tx: e.(dbms.Transactor), Engine: e, Rand: rand.New(rand.NewPCG(uint64(i), 13)), Scale: testDims.Warehouses}
		sessions[i] = s
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < n; j++ {
				typ, err := runOne(t, ctx, c, s)
				if err != nil && !errors.Is(err, ErrRollback) {
					errs[i] = err
					return
				}
				types[i][typ]++
			}
			audits[i] = c.Audit()
		}(i)
	}
	wg.Wait()
	retries := 0
	for _, s := range sessions {
		retries += s.Retries
	}
	t.Logf("%d transactions on %d clients at once, %d retried after a serialization failure or a deadlock", clients*n, clients, retries)
	var a Audit
	var all [numTypes]int64
	for i := range audits {
		if errs[i] != nil {
			t.Fatalf("client %d: %v", i, errs[i])
		}
		a.Add(audits[i])
		for k := range all {
			all[k] += types[i][k]
		}
	}
	checkAudit(t, a, all, clients*n)
	checkGrowth(t, before, tableCounts(t, ctx, ctl), a)
}

// recorder is a StatementTimer that counts the times it is handed, per
// type and statement.
type recorder struct {
	typ   *int
	times [numTypes][]int
}

func (r *recorder) Statement(i int, d time.Duration) {
	if d < 0 || i >= len(r.times[*r.typ]) {
		panic(fmt.Sprintf("statement %d of %s took %v", i, TxnNames[*r.typ], d))
	}
	r.times[*r.typ][i]++
}

// TestStatementTimes: with TimeStatements, a mix of every type times
// every statement of each under its name, and no other.
func TestStatementTimes(t *testing.T) {
	o := testEngine(t, "sqlite:"+filepath.Join(t.TempDir(), "s.db"))
	ctx, e := o.ctx, o.open()
	buildTestDB(t, ctx, e)
	cfg := workload.ClientConfig{Isolation: dbms.RepeatableRead, Scale: testDims.Warehouses, Clients: 1}
	c := NewClient(cfg, ClientOptions{Dims: testDims, C: RunConstants(3, 4), Mix: [numTypes]int{1, 1, 1, 1, 1}, TimeStatements: true})
	if err := c.Setup(ctx, e.(dbms.Transactor)); err != nil {
		t.Fatal(err)
	}
	names := StatementNames()
	rec := &recorder{typ: &c.typ}
	for typ := range rec.times {
		rec.times[typ] = make([]int, len(names[typ]))
	}
	s := &workload.Session{Tx: e.(dbms.Transactor), Engine: e, Rand: rand.New(rand.NewPCG(21, 22)), Scale: testDims.Warehouses, Timer: rec}
	for i := 0; i < 300; i++ {
		if _, err := runOne(t, ctx, c, s); err != nil && !errors.Is(err, ErrRollback) {
			t.Fatal(err)
		}
	}
	for typ, counts := range rec.times {
		for i, n := range counts {
			if n == 0 {
				t.Errorf("%s: statement %q never timed", TxnNames[typ], names[typ][i])
			}
		}
	}
	// The lines travel together: one insert per New-Order that is not
	// rolled back (txn_sql_lines.go).
	if lines, order := rec.times[NewOrder][8], rec.times[NewOrder][3]; lines > order || lines < order*9/10 {
		t.Errorf("%d order lines' inserts timed for %d orders", lines, order)
	}
}
