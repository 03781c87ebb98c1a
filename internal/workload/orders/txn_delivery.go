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

// delivered is one district's order a Delivery delivers.
type delivered struct {
	d, o, customer int64
	sum            string
}

// delivery runs Delivery (clause 2.7.4) on c.del, the ten districts in one
// transaction: in each, the oldest new order is removed, its order gets
// the carrier, its lines the delivery date, and its customer the lines'
// sum on the balance and one more delivery. A district without a new
// order is skipped and counted (the spec's log of skipped deliveries).
// The districts travel together (txn_sql_delivery.go).
func (c *Client) delivery(ctx context.Context, tx dbms.Transactor) error {
	in := &c.del
	if err := c.begin(ctx, tx); err != nil {
		return err
	}
	args := c.args[:0]
	for range DistrictsPerWarehouse {
		args = append(args, in.w)
	}
	if err := c.query(ctx, rOldestNew, args...); err != nil {
		return err
	}
	if len(c.res.Rows) != DistrictsPerWarehouse {
		return invalid("oldest new orders: %d rows, want %d", len(c.res.Rows), DistrictsPerWarehouse)
	}
	found := c.found[:0]
	for _, r := range c.res.Rows {
		if r[1] == "" { // MIN over no row: NULL
			continue
		}
		d, err := parseFixed(r[0], 0)
		if err != nil {
			return fmt.Errorf("district: %w", err)
		}
		o, err := parseFixed(r[1], 0)
		if err != nil {
			return fmt.Errorf("no_o_id: %w", err)
		}
		found = append(found, delivered{d: d, o: o})
	}
	c.found = found
	skipped := int64(DistrictsPerWarehouse - len(found))
	if len(found) > 0 {
		if err := c.deliver(ctx, tx, found); err != nil {
			return err
		}
	}
	if err := commit(ctx, tx); err != nil {
		return err
	}
	c.pending.Deliveries, c.pending.SkippedDistricts = 1, skipped
	return nil
}

// deliver delivers the orders found, one per district.
func (c *Client) deliver(ctx context.Context, tx dbms.Transactor, found []delivered) error {
	in := &c.del
	k := int64(len(found))
	keys := func(args []any) []any {
		args = append(args, in.w)
		for i := range DistrictsPerWarehouse {
			f := &found[padded(i, len(found))]
			args = append(args, f.d, f.o)
		}
		return args
	}
	c.args = keys(c.args[:0])
	n, err := c.exec(ctx, tx, sqlDeleteNew, c.args...)
	if err != nil {
		return err
	}
	if n >= 0 && n < k {
		return errDelivered
	}
	c.args = keys(append(c.args[:0], in.carrier))
	if n, err := c.exec(ctx, tx, sqlSetCarrier, c.args...); err != nil {
		return err
	} else if n >= 0 && n != k {
		return invalid("carrier set on %d orders, want %d", n, k)
	}
	c.args = keys(c.args[:0])
	if _, err := c.exec(ctx, tx, sqlDeliverLines, c.args...); err != nil {
		return err
	}
	if err := c.query(ctx, rOrderCustomers, keys(c.args[:0])...); err != nil {
		return err
	}
	if err := c.byDistrict(found, "o_c_id", func(f *delivered, v string) (err error) {
		f.customer, err = parseFixed(v, 0)
		return err
	}); err != nil {
		return err
	}
	if err := c.query(ctx, rLinesSums, keys(c.args[:0])...); err != nil {
		return err
	}
	if err := c.byDistrict(found, "sum(ol_amount)", func(f *delivered, v string) error {
		sum, err := parseCents(v)
		c.buf = appendCents(c.buf[:0], sum)
		f.sum = string(c.buf)
		return err
	}); err != nil {
		return err
	}
	args := c.args[:0]
	for i := range DistrictsPerWarehouse {
		f := &found[padded(i, len(found))]
		args = append(args, f.d, f.sum)
	}
	args = append(args, in.w)
	for i := range DistrictsPerWarehouse {
		f := &found[padded(i, len(found))]
		args = append(args, f.d, f.customer)
	}
	c.args = args
	if n, err := c.exec(ctx, tx, sqlDeliverCust, args...); err != nil {
		return err
	} else if n >= 0 && n != k {
		return invalid("delivered to %d customers, want %d", n, k)
	}
	return nil
}

// byDistrict hands each row of the last read (district, value) to set
// with its district's order; every order found must have one row.
func (c *Client) byDistrict(found []delivered, what string, set func(f *delivered, v string) error) error {
	if len(c.res.Rows) != len(found) {
		return invalid("%s of %d orders of warehouse %d: %d rows", what, len(found), c.del.w, len(c.res.Rows))
	}
	for _, r := range c.res.Rows {
		d, err := parseFixed(r[0], 0)
		if err != nil {
			return fmt.Errorf("district: %w", err)
		}
		i := 0
		for i < len(found) && found[i].d != d {
			i++
		}
		if i == len(found) {
			return invalid("%s: district %d has no order being delivered", what, d)
		}
		if err := set(&found[i], r[1]); err != nil {
			return invalid("order %d of district %d of warehouse %d: %s: %v", found[i].o, d, c.del.w, what, err)
		}
	}
	return nil
}
