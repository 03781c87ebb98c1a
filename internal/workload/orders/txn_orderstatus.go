package orders

import (
	"context"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// orderStatus runs Order-Status (clause 2.6.2) on c.os: find the
// customer (by last name as Payment does), read its balance and names,
// its most recent order and that order's lines.
func (c *Client) orderStatus(ctx context.Context, tx dbms.Transactor) error {
	in := &c.os
	if err := c.begin(ctx, tx); err != nil {
		return err
	}
	cid, err := c.customerID(ctx, in.w, in.d, &in.cust)
	if err != nil {
		return err
	}
	if _, err := c.queryRow(ctx, rCustomerOS, in.w, in.d, cid); err != nil {
		return err
	}
	row, err := c.queryRow(ctx, rLastOrder, in.w, in.d, cid, in.w, in.d, cid)
	if err != nil {
		return err
	}
	oid, err := parseFixed(row[0], 0)
	if err != nil {
		return invalid("o_id %q", row[0])
	}
	if err := c.query(ctx, rOrderLines, in.w, in.d, oid); err != nil {
		return err
	}
	if len(c.res.Rows) < 5 {
		return invalid("order %d of district %d of warehouse %d has %d lines, want 5..15", oid, in.d, in.w, len(c.res.Rows))
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
