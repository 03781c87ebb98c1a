package orders

import (
	"context"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// stockLevel runs Stock-Level (clause 2.8.2) on c.sl: the number of
// distinct items of the district's last 20 orders whose stock at the
// warehouse is below the threshold. Its count is only shown; the last
// one stays in c.lowStock for the tests.
func (c *Client) stockLevel(ctx context.Context, tx dbms.Transactor) error {
	in := &c.sl
	if err := c.begin(ctx, tx); err != nil {
		return err
	}
	next, err := c.queryInt(ctx, tx, sqlNextOrder, in.w, in.d)
	if err != nil {
		return err
	}
	low, err := c.queryInt(ctx, tx, sqlLowStock, in.w, in.d, next, next-20, in.w, in.threshold)
	if err != nil {
		return err
	}
	if err := commit(ctx, tx); err != nil {
		return err
	}
	c.lowStock = low
	c.pending.StockLevels = 1
	return nil
}
