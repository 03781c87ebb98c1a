package orders

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// The procedure form on each engine that has one: every procedure,
// given the inputs the statements form was given just before on the same
// database, does what the statements form did (the same order lines and
// total, the same customer and balance, the same count), the unused item
// rolls back with no trace, and three clients at once keep the
// conditions.

func TestProceduresPostgres(t *testing.T) {
	exerciseProcedures(t, testEngine(t, servertest.Start(t, "postgres", server.Options{}).URL))
}

func TestProceduresMariaDB(t *testing.T) {
	exerciseProcedures(t, testEngine(t, servertest.Start(t, "mariadb", server.Options{}).URL))
}

func TestProceduresFirebird(t *testing.T) {
	exerciseProcedures(t, testEngine(t, servertest.Start(t, "firebird", server.Options{}).URL))
}

func exerciseProcedures(t *testing.T, o opener) {
	ctx, ctl := o.ctx, o.open()
	buildTestDB(t, ctx, ctl)
	proc, err := ProcedureFor(ctl)
	if err != nil {
		t.Fatal(err)
	}
	if len(proc.Calls) != numTypes || proc.Default {
		t.Fatalf("procedure %+v: want a call per type, not the default form", proc)
	}
	// Dropped when there is nothing to drop, made, dropped and made again:
	// Drop and Create each in their order.
	for _, stmts := range [][]string{proc.Drop, proc.Create, (&Workload{}).DropFirst(ctl), proc.Create} {
		for _, st := range stmts {
			if _, err := ctl.Exec(ctx, st); err != nil {
				t.Fatalf("%.60s...: %v", st, err)
			}
		}
	}
	se, pe := o.open(), o.open()
	sc := testClient(t, ctx, se, 0, 1, true)
	pc := testProcClient(t, ctx, pe, proc, 0, 1, true)
	t.Run("NewOrder", func(t *testing.T) { procNewOrder(t, ctx, ctl, se, pe, sc, pc) })
	t.Run("Rollback", func(t *testing.T) { procRollback(t, ctx, ctl, pe, pc) })
	t.Run("Payment", func(t *testing.T) { procPayment(t, ctx, ctl, se, pe, sc, pc) })
	t.Run("OrderStatus", func(t *testing.T) { procOrderStatus(t, ctx, ctl, se, pe, sc, pc) })
	t.Run("StockLevel", func(t *testing.T) { procStockLevel(t, ctx, se, pe, sc, pc) })
	t.Run("Delivery", func(t *testing.T) { procDelivery(t, ctx, ctl, se, pe, sc, pc) })
	testConsistent(t, ctx, ctl)
	for _, iso := range []dbms.Isolation{dbms.RepeatableRead, dbms.ReadCommitted} {
		t.Run("Concurrent/"+iso.String(), func(t *testing.T) { procConcurrent(t, ctx, ctl, o, proc, iso) })
		testConsistent(t, ctx, ctl)
	}
}

// testProcClient is client i of n of the procedure form on e, set up.
func testProcClient(t *testing.T, ctx context.Context, e dbms.Engine, proc *workload.Procedure, i, n int, prepare bool, iso ...dbms.Isolation) *Client {
	t.Helper()
	cfg := workload.ClientConfig{Prepare: prepare, Isolation: append(iso, dbms.RepeatableRead)[0], Procedure: proc, Client: i, Clients: n,
		Scale: testDims.Warehouses, Seed: 7}
	c := NewClient(cfg, ClientOptions{Dims: testDims, C: RunConstants(7, 100)})
	if err := c.Setup(ctx, e.(dbms.Transactor)); err != nil {
		t.Fatalf("setup: %v", err)
	}
	return c
}

// procCall runs c's procedure of type typ on e with c's inputs of that
// type, as Run would once it drew them (the client numbers its tags
// from 1 when tagged).
func procCall(ctx context.Context, c *Client, e dbms.Engine, typ int) error {
	var seq int64
	s := &workload.Session{Tx: e.(dbms.Transactor), Engine: e, NextSeq: func() int64 { seq++; return seq }}
	c.typ, c.pending = typ, Audit{}
	return c.callProcedure(ctx, s)
}

// orderAndLines are an order's row and its lines as text, the order number
// left out.
func orderAndLines(t *testing.T, ctx context.Context, e dbms.Engine, w, d, o int64) string {
	t.Helper()
	order := testRows(t, ctx, e, fmt.Sprintf("SELECT o_c_id, o_ol_cnt, o_all_local, o_carrier_id FROM orders WHERE o_w_id = %d AND o_d_id = %d AND o_id = %d", w, d, o))
	lines := testRows(t, ctx, e, fmt.Sprintf("SELECT ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info, ol_delivery_d FROM order_line"+
		" WHERE ol_w_id = %d AND ol_d_id = %d AND ol_o_id = %d ORDER BY ol_number", w, d, o))
	news := testCount(t, ctx, e, fmt.Sprintf("SELECT COUNT(*) FROM new_order WHERE no_w_id = %d AND no_d_id = %d AND no_o_id = %d", w, d, o))
	return fmt.Sprint(order, lines, news)
}

// quantityRule is a stock quantity after an order of q (clause 2.4.2.2).
func quantityRule(s, q int64) int64 {
	if s-q >= 10 {
		return s - q
	}
	return s - q + 91
}

// procNewOrder: the same inputs twice, by statements then by procedure,
// make two orders with the same rows and lines, the next order number,
// the same total, and each stock row ordered twice by the quantity rule.
func procNewOrder(t *testing.T, ctx context.Context, ctl, se, pe dbms.Engine, sc, pc *Client) {
	rng := rand.New(rand.NewPCG(4, 4))
	for sc.no.draw(rng, testDims, sc.k, 1); sc.no.rollback || sc.no.remote == 0; {
		sc.no.draw(rng, testDims, sc.k, 1)
	}
	in := sc.no
	pc.no = in
	stock := map[[2]int64]stockRow{}
	for _, l := range in.lines[:in.n] {
		stock[[2]int64{l.supply, l.item}] = readStock(t, ctx, ctl, l.supply, l.item)
	}
	before := tableCounts(t, ctx, ctl)
	var byStmts, byProc NewOrderResult
	if err := sc.runNewOrder(ctx, se.(dbms.Transactor), &byStmts); err != nil {
		t.Fatalf("new-order by statements: %v", err)
	}
	if err := procCall(ctx, pc, pe, NewOrder); err != nil {
		t.Fatalf("new-order by procedure: %v", err)
	}
	byProc.OrderID, byProc.Total = pc.proc.out[NewOrder][0], pc.proc.out[NewOrder][1]
	if byProc.OrderID != byStmts.OrderID+1 || byProc.Total != byStmts.Total || byProc.Total == 0 {
		t.Errorf("procedure: order %d total %d; statements: order %d total %d", byProc.OrderID, byProc.Total, byStmts.OrderID, byStmts.Total)
	}
	if s, p := orderAndLines(t, ctx, ctl, in.w, in.d, byStmts.OrderID), orderAndLines(t, ctx, ctl, in.w, in.d, byProc.OrderID); s != p {
		t.Errorf("order by procedure %s\nby statements %s", p, s)
	}
	var sum int64
	for _, a := range byStmts.Amounts {
		sum += a
	}
	lines := testRows(t, ctx, ctl, fmt.Sprintf("SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = %d AND ol_d_id = %d AND ol_o_id = %d", in.w, in.d, byProc.OrderID))
	if got := testNum(t, lines[0][0], 2); got != sum {
		t.Errorf("the procedure's lines sum to %d cents, the statements' amounts to %d", got, sum)
	}
	after := tableCounts(t, ctx, ctl)
	for tb, d := range map[string]int64{"orders": 2, "new_order": 2, "order_line": 2 * int64(in.n), "next": 2, "history": 0} {
		if after[tb]-before[tb] != d {
			t.Errorf("%s grew by %d, want %d", tb, after[tb]-before[tb], d)
		}
	}
	for _, l := range in.lines[:in.n] {
		was, now := stock[[2]int64{l.supply, l.item}], readStock(t, ctx, ctl, l.supply, l.item)
		remote := int64(0)
		if l.remote {
			remote = 2
		}
		if want := (stockRow{quantityRule(quantityRule(was.quantity, l.quantity), l.quantity), was.ytd + 2*l.quantity, was.orders + 2, was.remote + remote}); now != want {
			t.Errorf("stock of item %d at warehouse %d: %+v after %+v, want %+v", l.item, l.supply, now, was, want)
		}
	}
	if pc.pending != (Audit{NewOrders: 1, Lines: int64(in.n), RemoteLines: in.remote}) {
		t.Errorf("counted %+v", pc.pending)
	}
}

// procRollback: an order whose last item is unused comes back as
// ErrRollback, its transaction rolled back, nothing of it kept, counted
// as a New-Order rolled back; through Run too.
func procRollback(t *testing.T, ctx context.Context, ctl, pe dbms.Engine, pc *Client) {
	rng := rand.New(rand.NewPCG(5, 5))
	for pc.no.draw(rng, testDims, pc.k, 1); !pc.no.rollback; {
		pc.no.draw(rng, testDims, pc.k, 1)
	}
	before := tableCounts(t, ctx, ctl)
	if err := procCall(ctx, pc, pe, NewOrder); !errors.Is(err, ErrRollback) {
		t.Fatalf("new-order with an unused item: %v, want ErrRollback", err)
	}
	if pe.(dbms.TextQuerier).InTransaction() {
		t.Error("the rolled back transaction is still open")
	}
	if after := tableCounts(t, ctx, ctl); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("a rolled back new-order changed the database: %v, before %v", after, before)
	}
	if pc.pending != (Audit{NewOrders: 1, Rollbacks: 1, Lines: int64(pc.no.n), RemoteLines: pc.no.remote}) {
		t.Errorf("counted %+v, want one new-order rolled back", pc.pending)
	}
	// The next call on the session works: nothing of the signal is left.
	pc.sl = stockLevelIn{w: 1, d: 1, threshold: 15}
	if err := procCall(ctx, pc, pe, StockLevel); err != nil {
		t.Fatalf("stock-level after the rollback: %v", err)
	}
	if err := procSignal(dbms.Wrap(dbms.Deadlock, errors.New("deadlock found"))); dbms.Classify(err) != dbms.Deadlock {
		t.Errorf("an error that is no signal lost its class: %v", err)
	}
}

// procPayment: by name, the procedure pays the customer the statements
// paid, and returns its balance one payment lower; to a customer of bad
// credit, it puts its own payment before the statements'; with a tag,
// the history row carries it.
func procPayment(t *testing.T, ctx context.Context, ctl, se, pe dbms.Engine, sc, pc *Client) {
	for _, in := range []paymentIn{
		{w: 1, d: 3, cw: 1, cd: 3, cust: customerKey{byName: true, last: lastName(1)}, amount: 123_45},
		{w: 1, d: 5, cw: 2, cd: 4, cust: customerKey{c: 2}, amount: 5000_00, remote: true},
	} {
		sc.pay, pc.pay, sc.tag, pc.tag = in, in, "", ""
		wYtd, dYtd := ytd(t, ctx, ctl, in.w, in.d)
		if err := sc.payment(ctx, se.(dbms.Transactor)); err != nil {
			t.Fatalf("payment by statements: %v", err)
		}
		sc.tq = se.(dbms.TextQuerier)
		cid, err := sc.customerID(ctx, in.cw, in.cd, &in.cust)
		if err != nil {
			t.Fatal(err)
		}
		mid, _, data := readCustomer(t, ctx, ctl, in.cw, in.cd, cid)
		pc.cfg.Tagged = true
		err = procCall(ctx, pc, pe, Payment)
		pc.cfg.Tagged = false
		if err != nil {
			t.Fatalf("payment by procedure: %v", err)
		}
		now, _, newData := readCustomer(t, ctx, ctl, in.cw, in.cd, cid)
		if out := pc.proc.out[Payment]; out[0] != cid || out[1] != mid.balance-in.amount || now != (customerRow{mid.balance - in.amount, mid.ytd + in.amount, mid.payments + 1}) {
			t.Errorf("procedure paid customer %d, balance %d (stored %+v); statements paid %d, then %+v", out[0], out[1], now, cid, mid)
		}
		if w2, d2 := ytd(t, ctx, ctl, in.w, in.d); w2 != wYtd+2*in.amount || d2 != dYtd+2*in.amount {
			t.Errorf("w_ytd %d, d_ytd %d after two payments of %d on %d, %d", w2, d2, in.amount, wYtd, dYtd)
		}
		tag := tagText(0, 1)
		wantOne(t, ctx, ctl, "the tagged history row", fmt.Sprintf("SELECT COUNT(*) FROM history WHERE h_data = '%s' AND h_c_id = %d AND h_c_w_id = %d AND h_c_d_id = %d", tag, cid, in.cw, in.cd))
		if _, err := ctl.Exec(ctx, "UPDATE history SET h_data = 'paid' WHERE h_data = '"+tag+"'"); err != nil {
			t.Fatal(err)
		}
		if in.remote {
			want := fmt.Sprintf("%d %d %d %d %d %s | %s", cid, in.cd, in.cw, in.d, in.w, formatCents(in.amount), data)
			if len(want) > maxCData {
				want = want[:maxCData]
			}
			if newData != strings.TrimRight(want, " ") {
				t.Errorf("c_data %q, want %q", newData, want)
			}
		}
		if want := (Audit{Payments: 1, RemotePayments: map[bool]int64{true: 1}[in.remote], PaymentsByName: flag(in.cust.byName)}); pc.pending != want {
			t.Errorf("counted %+v, want %+v", pc.pending, want)
		}
	}
}

// procOrderStatus: the customer, its balance, its last order and that
// order's lines are the statements form's, by number and by name.
func procOrderStatus(t *testing.T, ctx context.Context, ctl, se, pe dbms.Engine, sc, pc *Client) {
	for _, ck := range []customerKey{{c: 7}, {byName: true, last: lastName(4)}} {
		sc.os, pc.os = orderStatusIn{w: 2, d: 6, cust: ck}, orderStatusIn{w: 2, d: 6, cust: ck}
		if err := sc.orderStatus(ctx, se.(dbms.Transactor)); err != nil {
			t.Fatalf("order-status by statements: %v", err)
		}
		lines := int64(len(sc.res.Rows))
		cid, err := sc.customerID(ctx, 2, 6, &ck)
		if err != nil {
			t.Fatal(err)
		}
		if err := procCall(ctx, pc, pe, OrderStatus); err != nil {
			t.Fatalf("order-status by procedure: %v", err)
		}
		r := testRows(t, ctx, ctl, fmt.Sprintf("SELECT c_balance, (SELECT MAX(o_id) FROM orders WHERE o_w_id = 2 AND o_d_id = 6 AND o_c_id = %d)"+
			" FROM customer WHERE c_w_id = 2 AND c_d_id = 6 AND c_id = %d", cid, cid))
		want := [4]int64{cid, testNum(t, r[0][0], 2), testNum(t, r[0][1], 0), lines}
		if pc.proc.out[OrderStatus] != want {
			t.Errorf("order-status of %+v: procedure (customer, balance, order, lines) %v, statements %v", ck, pc.proc.out[OrderStatus], want)
		}
	}
}

// procStockLevel: the procedure's count is the statements form's, for
// every threshold and a few districts; some are not zero.
func procStockLevel(t *testing.T, ctx context.Context, se, pe dbms.Engine, sc, pc *Client) {
	total := int64(0)
	for d := int64(1); d <= 3; d++ {
		for th := int64(10); th <= 20; th++ {
			sc.sl, pc.sl = stockLevelIn{w: 1, d: d, threshold: th}, stockLevelIn{w: 1, d: d, threshold: th}
			if err := sc.stockLevel(ctx, se.(dbms.Transactor)); err != nil {
				t.Fatalf("stock-level by statements: %v", err)
			}
			if err := procCall(ctx, pc, pe, StockLevel); err != nil {
				t.Fatalf("stock-level by procedure: %v", err)
			}
			if pc.lowStock != sc.lowStock {
				t.Errorf("district %d, threshold %d: procedure %d items low, statements %d", d, th, pc.lowStock, sc.lowStock)
			}
			total += sc.lowStock
		}
	}
	if total == 0 {
		t.Error("no stock below any threshold: the check saw nothing")
	}
}

// procDelivery: after a delivery by statements, one by procedure delivers
// each district's next oldest new order as the statements delivered the
// oldest (carrier, delivery dates, the customer credited with the lines'
// sum); once warehouse 2 has none left, both skip all ten districts.
func procDelivery(t *testing.T, ctx context.Context, ctl, se, pe dbms.Engine, sc, pc *Client) {
	type delivered struct{ order, cust, sum, balance, count int64 }
	oldest := func(d, k int64) delivered {
		var x delivered
		r := testRows(t, ctx, ctl, fmt.Sprintf("SELECT no_o_id FROM new_order WHERE no_w_id = 2 AND no_d_id = %d ORDER BY no_o_id", d))
		x.order = testNum(t, r[k][0], 0)
		x.cust = testCount(t, ctx, ctl, fmt.Sprintf("SELECT o_c_id FROM orders WHERE o_w_id = 2 AND o_d_id = %d AND o_id = %d", d, x.order))
		r = testRows(t, ctx, ctl, fmt.Sprintf("SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = 2 AND ol_d_id = %d AND ol_o_id = %d", d, x.order))
		x.sum = testNum(t, r[0][0], 2)
		r = testRows(t, ctx, ctl, fmt.Sprintf("SELECT c_balance, c_delivery_cnt FROM customer WHERE c_w_id = 2 AND c_d_id = %d AND c_id = %d", d, x.cust))
		x.balance, x.count = testNum(t, r[0][0], 2), testNum(t, r[0][1], 0)
		return x
	}
	var first, second [DistrictsPerWarehouse + 1]delivered
	for d := int64(1); d <= DistrictsPerWarehouse; d++ {
		first[d], second[d] = oldest(d, 0), oldest(d, 1)
	}
	sc.del, pc.del = deliveryIn{w: 2, carrier: 7}, deliveryIn{w: 2, carrier: 8}
	sc.pending = Audit{}
	if err := sc.delivery(ctx, se.(dbms.Transactor)); err != nil {
		t.Fatalf("delivery by statements: %v", err)
	}
	if err := procCall(ctx, pc, pe, Delivery); err != nil {
		t.Fatalf("delivery by procedure: %v", err)
	}
	if sc.pending != pc.pending || pc.pending != (Audit{Deliveries: 1}) {
		t.Errorf("counted %+v by procedure, %+v by statements", pc.pending, sc.pending)
	}
	for d := int64(1); d <= DistrictsPerWarehouse; d++ {
		for carrier, x := range map[int64]delivered{7: first[d], 8: second[d]} {
			q := "SELECT COUNT(*) FROM orders WHERE o_w_id = 2 AND o_d_id = %d AND o_id = %d AND o_carrier_id = %d AND" +
				" NOT EXISTS (SELECT 1 FROM order_line WHERE ol_w_id = 2 AND ol_d_id = %d AND ol_o_id = o_id AND ol_delivery_d IS NULL)" +
				" AND NOT EXISTS (SELECT 1 FROM new_order WHERE no_w_id = 2 AND no_d_id = %d AND no_o_id = o_id)"
			wantOne(t, ctx, ctl, fmt.Sprintf("order %d of district %d delivered by carrier %d", x.order, d, carrier), fmt.Sprintf(q, d, x.order, carrier, d, d))
			r := testRows(t, ctx, ctl, fmt.Sprintf("SELECT c_balance, c_delivery_cnt FROM customer WHERE c_w_id = 2 AND c_d_id = %d AND c_id = %d", d, x.cust))
			if b, n := testNum(t, r[0][0], 2), testNum(t, r[0][1], 0); b != x.balance+x.sum || n != x.count+1 {
				t.Errorf("district %d, carrier %d: customer %d has balance %d, %d deliveries; want %d + %d, %d", d, carrier, x.cust, b, n, x.balance, x.sum, x.count+1)
			}
		}
	}
	left := testCount(t, ctx, ctl, "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM new_order WHERE no_w_id = 2 GROUP BY no_d_id) x")
	for i := int64(0); i < left; i++ {
		if err := procCall(ctx, pc, pe, Delivery); err != nil {
			t.Fatalf("delivery by procedure: %v", err)
		}
	}
	sc.pending = Audit{}
	if err := sc.delivery(ctx, se.(dbms.Transactor)); err != nil {
		t.Fatal(err)
	}
	if err := procCall(ctx, pc, pe, Delivery); err != nil {
		t.Fatal(err)
	}
	if pc.pending.SkippedDistricts != DistrictsPerWarehouse || sc.pending.SkippedDistricts != DistrictsPerWarehouse {
		t.Errorf("on no new order the procedure skipped %d districts, the statements %d; want %d", pc.pending.SkippedDistricts, sc.pending.SkippedDistricts, DistrictsPerWarehouse)
	}
}

// procConcurrent runs three clients of the procedure form at once at
// isolation level iso (concurrently), two preparing their calls: a
// procedure's deadlocks and serialization failures keep their classes
// and are retried.
func procConcurrent(t *testing.T, ctx context.Context, ctl dbms.Engine, o opener, proc *workload.Procedure, iso dbms.Isolation) {
	concurrently(t, ctx, ctl, o, func(e dbms.Engine, i, n int) *Client { return testProcClient(t, ctx, e, proc, i, n, i%2 == 0, iso) })
}
