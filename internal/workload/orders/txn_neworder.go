package orders

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// NewOrderResult is what a New-Order shows its terminal (clause 2.4.3):
// kept for the tests, computed like the spec's output.
type NewOrderResult struct {
	OrderID int64
	// Total is the order's amount with discount and taxes, in cents.
	Total int64
	// Amounts are the lines' OL_AMOUNT in cents, by line number - 1.
	Amounts [MaxLines]int64
}

// newOrder runs New-Order (clause 2.4.2) on c.no: take the district's
// next order number, read its tax, the customer and the warehouse's tax,
// insert the order and its new-order row, then read every line's item,
// update the stock rows by the quantity rule, read them, and insert the
// lines with OL_AMOUNT = OL_QUANTITY * I_PRICE (txn_sql_lines.go says why
// the lines travel together). An item not found (the last line's unused
// item, in 1% of the orders) rolls everything back once the lines before
// it are done: ErrRollback.
func (c *Client) newOrder(ctx context.Context, tx dbms.Transactor) error {
	var out NewOrderResult
	return c.runNewOrder(ctx, tx, &out)
}

func (c *Client) runNewOrder(ctx context.Context, tx dbms.Transactor, out *NewOrderResult) error {
	in := &c.no
	if err := c.begin(ctx, tx); err != nil {
		return err
	}
	if err := c.exec1(ctx, tx, sqlBumpNextOrder, in.w, in.d); err != nil {
		return err
	}
	row, err := c.queryRow(ctx, rDistrict, in.w, in.d)
	if err != nil {
		return err
	}
	next, err := parseFixed(row[0], 0)
	if err != nil {
		return fmt.Errorf("d_next_o_id: %w", err)
	}
	dTax, err := parseRate(row[1])
	if err != nil {
		return fmt.Errorf("d_tax: %w", err)
	}
	oid := next - 1
	row, err = c.queryRow(ctx, rCustomerNO, in.w, in.d, in.c)
	if err != nil {
		return err
	}
	discount, err := parseRate(row[0])
	if err != nil {
		return fmt.Errorf("c_discount: %w", err)
	}
	wTax, err := parseRate(row[3])
	if err != nil {
		return fmt.Errorf("w_tax: %w", err)
	}
	allLocal := int64(0)
	if in.allLocal {
		allLocal = 1
	}
	if err := c.exec1(ctx, tx, sqlInsertOrder, oid, in.d, in.w, in.c, int64(in.n), allLocal); err != nil {
		return err
	}
	if err := c.exec1(ctx, tx, sqlInsertNew, oid, in.d, in.w); err != nil {
		return err
	}
	found, err := c.readItems(ctx)
	if err != nil {
		return err
	}
	if err := c.orderLines(ctx, tx, oid, found); err != nil {
		return err
	}
	if found < in.n {
		if rerr := tx.Rollback(ctx); rerr != nil {
			return fmt.Errorf("roll back the unused item's order: %w", rerr)
		}
		c.pending.NewOrders, c.pending.Rollbacks = 1, 1
		c.pending.Lines, c.pending.RemoteLines = int64(in.n), in.remote
		return ErrRollback
	}
	if err := commit(ctx, tx); err != nil {
		return err
	}
	var sum int64
	for i := 0; i < in.n; i++ {
		l := &in.lines[i]
		amount := l.quantity * c.prices[i]
		out.Amounts[l.number-1] = amount
		sum += amount
	}
	out.OrderID = oid
	out.Total = totalAmount(sum, discount, wTax, dTax)
	c.pending.NewOrders, c.pending.Lines, c.pending.RemoteLines = 1, int64(in.n), in.remote
	return nil
}

// readItems reads every line's item price into c.prices and returns how
// many lines come first with their item found: the lines are sorted by
// item, so the unused item (beyond the last one) is the last line. Any
// other count than the draw's means the database is not the workload's.
func (c *Client) readItems(ctx context.Context) (int, error) {
	in := &c.no
	args := c.args[:0]
	for i := 0; i < MaxLines; i++ {
		args = append(args, in.lines[padded(i, in.n)].item)
	}
	if err := c.query(ctx, rItems, args...); err != nil {
		return 0, err
	}
	for i := range c.prices[:in.n] {
		c.prices[i] = -1
	}
	for _, r := range c.res.Rows {
		id, err := parseFixed(r[0], 0)
		if err != nil {
			return 0, fmt.Errorf("i_id: %w", err)
		}
		i := in.lineOf(id)
		if i < 0 {
			return 0, invalid("item read returned item %d, not one of the order's", id)
		}
		if c.prices[i], err = parseCents(r[1]); err != nil {
			return 0, fmt.Errorf("i_price: %w", err)
		}
	}
	found := 0
	for found < in.n && c.prices[found] >= 0 {
		found++
	}
	// The database must agree with the draw: every item found but the
	// unused one of an order drawn with it.
	want := in.n
	if in.rollback {
		want = in.n - 1
	}
	if found != want {
		return 0, invalid("%d of the order's %d items found, want %d (rollback drawn: %v): the item table is not the workload's", found, in.n, want, in.rollback)
	}
	return found, nil
}

// orderLines updates the stock rows of the first k lines of order oid,
// reads them and inserts the k lines.
func (c *Client) orderLines(ctx context.Context, tx dbms.Transactor, oid int64, k int) error {
	in := &c.no
	args := c.args[:0]
	for i := 0; i < MaxLines; i++ {
		l := &in.lines[padded(i, k)]
		args = append(args, l.item, l.quantity+10, l.quantity, 91-l.quantity)
	}
	for i := 0; i < MaxLines; i++ {
		l := &in.lines[padded(i, k)]
		args = append(args, l.item, l.quantity)
	}
	args = append(args, in.w)
	keys := len(args)
	for i := 0; i < MaxLines; i++ {
		l := &in.lines[padded(i, k)]
		args = append(args, l.supply, l.item)
	}
	c.args = args
	n, err := c.exec(ctx, tx, sqlUpdateStocks, args...)
	if err != nil {
		return err
	}
	if n != int64(k) && n >= 0 {
		return invalid("stock update of %d lines touched %d rows", k, n)
	}
	if err := c.query(ctx, rStocks+int(in.d)-1, args[keys:]...); err != nil {
		return err
	}
	if len(c.res.Rows) != k {
		return invalid("stock read of %d lines returned %d rows", k, len(c.res.Rows))
	}
	for _, r := range c.res.Rows {
		id, err := parseFixed(r[0], 0)
		if err != nil {
			return fmt.Errorf("s_i_id: %w", err)
		}
		i := in.lineOf(id)
		if i < 0 || i >= k {
			return invalid("stock read returned item %d, not one of the order's", id)
		}
		c.distInfo[i] = r[3]
	}
	step := k
	if c.oneRow {
		step = 1
	}
	for first := 0; first < k; first += step {
		args := c.args[:0]
		for i := first; i < first+step; i++ {
			l := &in.lines[i]
			c.amounts[i] = appendCents(c.amounts[i][:0], l.quantity*c.prices[i])
			args = append(args, oid, in.d, in.w, l.number, l.item, l.supply, l.quantity, string(c.amounts[i]), c.distInfo[i])
		}
		c.args = args
		if n, err := c.exec(ctx, tx, sqlInsertLines[step], args...); err != nil {
			return err
		} else if n != int64(step) && n >= 0 {
			return invalid("insert of %d order lines inserted %d", step, n)
		}
	}
	return nil
}

// padded is the line that fills slot i of a statement padded for n lines.
func padded(i, n int) int {
	if i < n {
		return i
	}
	return 0
}

// lineOf is the index of the line of item id, -1 if none.
func (in *newOrderIn) lineOf(id int64) int {
	for i := 0; i < in.n; i++ {
		if in.lines[i].item == id {
			return i
		}
	}
	return -1
}
