package orders

import (
	"context"
	"fmt"

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
	next, err := tx.QueryInt(ctx, sqlNextOrder, in.w, in.d)
	if err != nil {
		return fmt.Errorf("%s: %w", firstWords(sqlNextOrder), err)
	}
	low, err := tx.QueryInt(ctx, sqlLowStock, in.w, in.d, next, next-20, in.w, in.threshold)
	if err != nil {
		return fmt.Errorf("%s: %w", firstWords(sqlLowStock), err)
	}
	if err := commit(ctx, tx); err != nil {
		return err
	}
	c.lowStock = low
	c.pending.StockLevels = 1
	return nil
}
