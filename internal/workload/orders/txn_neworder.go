package orders

import (
	"context"
	"errors"
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
// next order number, read the taxes and the customer, insert the order
// and its new-order row, then for each line read the item, update its
// stock by the quantity rule and insert the line with OL_AMOUNT =
// OL_QUANTITY * I_PRICE. An unused item (the last line, in 1% of the
// orders) rolls everything back: ErrRollback.
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
	row, err = c.queryRow(ctx, rWarehouseTax, in.w)
	if err != nil {
		return err
	}
	wTax, err := parseRate(row[0])
	if err != nil {
		return fmt.Errorf("w_tax: %w", err)
	}
	row, err = c.queryRow(ctx, rCustomerNO, in.w, in.d, in.c)
	if err != nil {
		return err
	}
	discount, err := parseRate(row[0])
	if err != nil {
		return fmt.Errorf("c_discount: %w", err)
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
	var sum int64
	for i := 0; i < in.n; i++ {
		l := &in.lines[i]
		amount, err := c.orderLine(ctx, tx, oid, l)
		if errors.Is(err, ErrRollback) {
			if rerr := tx.Rollback(ctx); rerr != nil {
				return fmt.Errorf("roll back the unused item's order: %w", rerr)
			}
			c.pending.NewOrders, c.pending.Rollbacks = 1, 1
			c.pending.Lines, c.pending.RemoteLines = int64(in.n), in.remote
			return err
		}
		if err != nil {
			return err
		}
		out.Amounts[l.number-1] = amount
		sum += amount
	}
	if err := commit(ctx, tx); err != nil {
		return err
	}
	out.OrderID = oid
	out.Total = totalAmount(sum, discount, wTax, dTax)
	c.pending.NewOrders, c.pending.Lines, c.pending.RemoteLines = 1, int64(in.n), in.remote
	return nil
}

// orderLine processes one line of order oid and returns its amount in
// cents; ErrRollback when its item does not exist.
func (c *Client) orderLine(ctx context.Context, tx dbms.Transactor, oid int64, l *orderLine) (int64, error) {
	in := &c.no
	if err := c.query(ctx, rItem, l.item); err != nil {
		return 0, err
	}
	if len(c.res.Rows) == 0 {
		return 0, ErrRollback
	}
	price, err := parseCents(c.res.Rows[0][0])
	if err != nil {
		return 0, fmt.Errorf("i_price: %w", err)
	}
	remote := int64(0)
	if l.remote {
		remote = 1
	}
	if err := c.exec1(ctx, tx, sqlUpdateStock, l.quantity+10, l.quantity, 91-l.quantity, l.quantity, remote, l.supply, l.item); err != nil {
		return 0, err
	}
	row, err := c.queryRow(ctx, rStock+int(in.d)-1, l.supply, l.item)
	if err != nil {
		return 0, err
	}
	amount := l.quantity * price
	c.buf = appendCents(c.buf[:0], amount)
	if err := c.exec1(ctx, tx, sqlInsertLine, oid, in.d, in.w, l.number, l.item, l.supply, l.quantity, string(c.buf), row[2]); err != nil {
		return 0, err
	}
	return amount, nil
}
