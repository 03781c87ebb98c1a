package orders

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// maxCData is the length of C_DATA (clause 1.3.1).
const maxCData = 500

// payment runs Payment (clause 2.5.2) on c.pay: add the amount to the
// warehouse's and the district's year-to-date, find the customer (by
// last name: the middle one of those sorted by first name), take the
// amount off its balance and add it to its payments, prepend the
// payment to C_DATA of a customer of bad credit, and insert the history
// row.
func (c *Client) payment(ctx context.Context, tx dbms.Transactor) error {
	in := &c.pay
	amount := formatCents(in.amount)
	if err := c.begin(ctx, tx); err != nil {
		return err
	}
	if err := c.exec1(ctx, tx, sqlPayWarehouse, amount, in.w); err != nil {
		return err
	}
	row, err := c.queryRow(ctx, rWarehouse, in.w)
	if err != nil {
		return err
	}
	wName := row[0]
	if err := c.exec1(ctx, tx, sqlPayDistrict, amount, in.w, in.d); err != nil {
		return err
	}
	if row, err = c.queryRow(ctx, rDistrictPay, in.w, in.d); err != nil {
		return err
	}
	hData := wName + "    " + row[0]
	if c.tag != "" {
		hData = c.tag
	}
	cid, err := c.customerID(ctx, in.cw, in.cd, &in.cust)
	if err != nil {
		return err
	}
	if err := c.exec1(ctx, tx, sqlPayCustomer, amount, amount, in.cw, in.cd, cid); err != nil {
		return err
	}
	if row, err = c.queryRow(ctx, rCustomerPay, in.cw, in.cd, cid); err != nil {
		return err
	}
	if row[10] == "BC" {
		if row, err = c.queryRow(ctx, rCustomerData, in.cw, in.cd, cid); err != nil {
			return err
		}
		// Not exec1: MariaDB counts the rows it changed, and a C_DATA
		// that already began with this very payment would stay as it is.
		if _, err := c.exec(ctx, tx, sqlCustomerData, c.badCredit(cid, row[0]), in.cw, in.cd, cid); err != nil {
			return err
		}
	}
	if err := c.exec1(ctx, tx, sqlInsertHist, cid, in.cd, in.cw, in.d, in.w, amount, hData); err != nil {
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

// badCredit is the new C_DATA of a customer of bad credit (clause
// 2.5.2.2): the payment's C_ID, C_D_ID, C_W_ID, D_ID, W_ID and H_AMOUNT
// at the left of the old data, which shifts right and loses what passes
// 500 characters.
func (c *Client) badCredit(cid int64, old string) string {
	in := &c.pay
	b := c.buf[:0]
	for _, v := range [...]int64{cid, in.cd, in.cw, in.d, in.w} {
		b = strconv.AppendInt(b, v, 10)
		b = append(b, ' ')
	}
	b = appendCents(b, in.amount)
	b = append(b, " | "...)
	b = append(b, old...)
	if len(b) > maxCData {
		b = b[:maxCData]
	}
	c.buf = b
	return string(b)
}

// customerID is the customer ck names in district (w, d): its number,
// or, by last name, the one at position ceil(n/2) of the n customers of
// that name sorted by C_FIRST (clause 2.5.2.2, 2.6.2.2).
func (c *Client) customerID(ctx context.Context, w, d int64, ck *customerKey) (int64, error) {
	if !ck.byName {
		return ck.c, nil
	}
	if err := c.query(ctx, rCustomerIDs, w, d, ck.last); err != nil {
		return 0, err
	}
	n := len(c.res.Rows)
	if n == 0 {
		return 0, invalid("no customer named %s in district %d of warehouse %d", ck.last, d, w)
	}
	id, err := parseFixed(c.res.Rows[(n-1)/2][0], 0)
	if err != nil {
		return 0, fmt.Errorf("c_id: %w", err)
	}
	return id, nil
}
