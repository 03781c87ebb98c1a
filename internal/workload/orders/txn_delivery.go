package orders

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// errDelivered is a new order another Delivery removed between this
// one's read of the oldest and its delete: the engine let the read see
// it (MariaDB's snapshot under REPEATABLE READ, then a delete that waits
// for the other's lock and finds nothing). Running the transaction again
// reads the next oldest: a serialization failure, retried as one.
var errDelivered = dbms.Wrap(dbms.Serialization, fmt.Errorf("orders: the oldest new order was delivered by another transaction"))

// delivery runs Delivery (clause 2.7.4) on c.del, the ten districts in one
// transaction: in each, the oldest new order is removed, its order gets
// the carrier, its lines the delivery date, and its customer the lines'
// sum on the balance and one more delivery. A district without a new
// order is skipped and counted (the spec's log of skipped deliveries).
func (c *Client) delivery(ctx context.Context, tx dbms.Transactor) error {
	in := &c.del
	if err := c.begin(ctx, tx); err != nil {
		return err
	}
	skipped := int64(0)
	for d := int64(1); d <= DistrictsPerWarehouse; d++ {
		row, err := c.queryRow(ctx, rOldestNew, in.w, d)
		if err != nil {
			return err
		}
		if row[0] == "" { // MIN over no row: NULL
			skipped++
			continue
		}
		oid, err := parseFixed(row[0], 0)
		if err != nil {
			return fmt.Errorf("no_o_id: %w", err)
		}
		n, err := c.exec(ctx, tx, sqlDeleteNew, in.w, d, oid)
		if err != nil {
			return err
		}
		if n == 0 {
			return errDelivered
		}
		if err := c.exec1(ctx, tx, sqlSetCarrier, in.carrier, in.w, d, oid); err != nil {
			return err
		}
		cid, err := c.queryInt(ctx, tx, sqlOrderCustomer, in.w, d, oid)
		if err != nil {
			return err
		}
		if _, err := c.exec(ctx, tx, sqlDeliverLines, in.w, d, oid); err != nil {
			return err
		}
		if row, err = c.queryRow(ctx, rLinesSum, in.w, d, oid); err != nil {
			return err
		}
		sum, err := parseCents(row[0])
		if err != nil {
			return invalid("order %d of district %d of warehouse %d: sum(ol_amount): %v", oid, d, in.w, err)
		}
		c.buf = appendCents(c.buf[:0], sum)
		if err := c.exec1(ctx, tx, sqlDeliverCust, string(c.buf), in.w, d, cid); err != nil {
			return err
		}
	}
	if err := commit(ctx, tx); err != nil {
		return err
	}
	c.pending.Deliveries, c.pending.SkippedDistricts = 1, skipped
	return nil
}
