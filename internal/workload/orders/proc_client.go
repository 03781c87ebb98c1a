package orders

import (
	"context"
	"errors"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// procState is a client's part in the procedure form
// (workload.ClientConfig.Procedure): the calls with the session's
// placeholders, and what the last calls returned, for the tests.
type procState struct {
	calls [numTypes]string
	// payment is the last Payment's customer and balance after it (in
	// cents); status the last Order-Status's.
	payment struct{ c, balance int64 }
	status  orderStatusOut
}

// orderStatusOut is what an Order-Status found: the customer, its
// balance in cents, its last order and that order's lines.
type orderStatusOut struct{ c, balance, order, lines int64 }

// setupProcedure writes the calls with tq's placeholders and, when the
// run prepares, prepares them.
func (c *Client) setupProcedure(ctx context.Context, tq dbms.TextQuerier) error {
	p := c.cfg.Procedure
	if len(p.Calls) != numTypes {
		return errNoProcedure
	}
	for t, call := range p.Calls {
		c.proc.calls[t] = withPlaceholders(call, tq)
	}
	if !c.cfg.Prepare {
		return nil
	}
	for _, s := range c.proc.calls {
		if err := tq.PrepareText(ctx, s); err != nil {
			return fmt.Errorf("prepare %q: %w", s, err)
		}
	}
	return nil
}

// counted adds the attempt's counts to the audit once it completed
// (committed, or rolled back by design) and returns err.
func (c *Client) counted(err error) error {
	if err == nil || errors.Is(err, ErrRollback) {
		c.audit.Add(c.pending)
	}
	return err
}

// callProcedure runs the drawn transaction as one call of its procedure.
func (c *Client) callProcedure(ctx context.Context, s *workload.Session) error {
	switch c.typ {
	case NewOrder:
		var out NewOrderResult
		return c.callNewOrder(ctx, s.Tx, &out)
	case Payment:
		c.tag = ""
		if c.cfg.Tagged {
			c.tag = tagText(s.TakeTag())
		}
		return c.callPayment(ctx, s.Tx)
	case OrderStatus:
		return c.callOrderStatus(ctx, s.Tx)
	case Delivery:
		return c.callDelivery(ctx, s.Tx)
	}
	return c.callStockLevel(ctx, s.Tx)
}

// call begins a transaction on tx and calls the procedure of type typ
// with args; it wants one row of want values back. A signal of the
// procedure comes back as what it means (procSignal), any other error
// with its class.
func (c *Client) call(ctx context.Context, tx dbms.Transactor, typ, want int, args ...any) ([]string, error) {
	if err := c.begin(ctx, tx); err != nil {
		return nil, err
	}
	c.args = append(c.args[:0], args...)
	if err := c.tq.QueryText(ctx, c.proc.calls[typ], c.args, c.cfg.Prepare, &c.res); err != nil {
		return nil, procSignal(fmt.Errorf("%s: %w", procNames[typ], err))
	}
	if len(c.res.Rows) != 1 || len(c.res.Rows[0]) != want {
		return nil, invalid("%s %v: %d rows %v, want one of %d values", procNames[typ], args, len(c.res.Rows), c.res.Rows, want)
	}
	return c.res.Rows[0], nil
}

// ints reads integers (a NULL is not one: the data are not the
// workload's).
func ints(row []string, scale int, out ...*int64) error {
	for i, p := range out {
		v, err := parseFixed(row[i], scale)
		if err != nil {
			return invalid("value %d of %v: %v", i+1, row, err)
		}
		*p = v
	}
	return nil
}

// callNewOrder is New-Order in the procedure form: its lines as the
// procedure's line records. The unused item's signal rolls back here
// (ErrRollback, counted as the statements form counts it).
func (c *Client) callNewOrder(ctx context.Context, tx dbms.Transactor, out *NewOrderResult) error {
	in := &c.no
	c.buf = appendLines(c.buf[:0], in)
	allLocal := int64(0)
	if in.allLocal {
		allLocal = 1
	}
	row, err := c.call(ctx, tx, NewOrder, 2, in.w, in.d, in.c, int64(in.n), allLocal, string(c.buf))
	if errors.Is(err, ErrRollback) {
		if rerr := tx.Rollback(ctx); rerr != nil {
			return fmt.Errorf("roll back the unused item's order: %w", rerr)
		}
		c.pending.NewOrders, c.pending.Rollbacks = 1, 1
		c.pending.Lines, c.pending.RemoteLines = int64(in.n), in.remote
		return ErrRollback
	}
	if err != nil {
		return err
	}
	var oid, total int64
	if err := ints(row, 0, &oid); err != nil {
		return err
	}
	if err := ints(row[1:], 2, &total); err != nil {
		return err
	}
	if err := commit(ctx, tx); err != nil {
		return err
	}
	out.OrderID, out.Total = oid, total
	c.pending.NewOrders, c.pending.Lines, c.pending.RemoteLines = 1, int64(in.n), in.remote
	return nil
}

// byName is a customer key as the procedures take it: 1 and the last
// name, or 0 and the number.
func byName(ck *customerKey) int64 {
	if ck.byName {
		return 1
	}
	return 0
}

// callPayment is Payment in the procedure form, with the run's tag when
// it tags (c.tag, "" when not).
func (c *Client) callPayment(ctx context.Context, tx dbms.Transactor) error {
	in := &c.pay
	row, err := c.call(ctx, tx, Payment, 2, in.w, in.d, in.cw, in.cd, byName(&in.cust), in.cust.c, in.cust.last, formatCents(in.amount), c.tag)
	if err != nil {
		return err
	}
	p := &c.proc.payment
	if err := ints(row, 0, &p.c); err != nil {
		return err
	}
	if err := ints(row[1:], 2, &p.balance); err != nil {
		return err
	}
	if err := commit(ctx, tx); err != nil {
		return err
	}
	c.pending.Payments = 1
	if in.remote {
		c.pending.RemotePayments = 1
	}
	if in.cust.byName {
		c.pending.PaymentsByName = 1
	}
	return nil
}

// callOrderStatus is Order-Status in the procedure form.
func (c *Client) callOrderStatus(ctx context.Context, tx dbms.Transactor) error {
	in := &c.os
	row, err := c.call(ctx, tx, OrderStatus, 4, in.w, in.d, byName(&in.cust), in.cust.c, in.cust.last)
	if err != nil {
		return err
	}
	o := &c.proc.status
	if err := ints(row, 0, &o.c); err != nil {
		return err
	}
	if err := ints(row[1:], 2, &o.balance); err != nil {
		return err
	}
	if err := ints(row[2:], 0, &o.order, &o.lines); err != nil {
		return err
	}
	if o.lines < MinLines {
		return invalid("order %d of district %d of warehouse %d has %d lines, want 5..15", o.order, in.d, in.w, o.lines)
	}
	if err := commit(ctx, tx); err != nil {
		return err
	}
	c.pending.OrderStatuses = 1
	if in.cust.byName {
		c.pending.OrderStatusesByName = 1
	}
	return nil
}

// callDelivery is Delivery in the procedure form: the procedure returns
// the districts it skipped.
func (c *Client) callDelivery(ctx context.Context, tx dbms.Transactor) error {
	in := &c.del
	row, err := c.call(ctx, tx, Delivery, 1, in.w, in.carrier)
	if err != nil {
		return err
	}
	var skipped int64
	if err := ints(row, 0, &skipped); err != nil {
		return err
	}
	if err := commit(ctx, tx); err != nil {
		return err
	}
	c.pending.Deliveries, c.pending.SkippedDistricts = 1, skipped
	return nil
}

// callStockLevel is Stock-Level in the procedure form.
func (c *Client) callStockLevel(ctx context.Context, tx dbms.Transactor) error {
	in := &c.sl
	row, err := c.call(ctx, tx, StockLevel, 1, in.w, in.d, in.threshold)
	if err != nil {
		return err
	}
	var low int64
	if err := ints(row, 0, &low); err != nil {
		return err
	}
	if err := commit(ctx, tx); err != nil {
		return err
	}
	c.lowStock = low
	c.pending.StockLevels = 1
	return nil
}
