package orders

import (
	"context"
	"fmt"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// The statements of each type by name, for the driver's figures per
// statement (workload.Statementer). The stock read has one text per district and
// one name, the order lines' insert one per number of lines.
type namedStatement struct {
	name string
	sql  []string
}

var typeStatements = [numTypes][]namedStatement{
	NewOrder: {
		{"next order number", []string{sqlBumpNextOrder}}, {"district", []string{readSQL[rDistrict]}},
		{"customer and warehouse tax", []string{readSQL[rCustomerNO]}},
		{"insert order", []string{sqlInsertOrder}}, {"insert new order", []string{sqlInsertNew}},
		{"items", []string{readSQL[rItems]}}, {"update stocks", []string{sqlUpdateStocks}},
		{"stocks", readSQL[rStocks : rStocks+DistrictsPerWarehouse]}, {"insert order lines", sqlInsertLines[1:]},
	},
	Payment: {
		{"update warehouse", []string{sqlPayWarehouse}}, {"warehouse", []string{readSQL[rWarehouse]}},
		{"update district", []string{sqlPayDistrict}}, {"district", []string{readSQL[rDistrictPay]}},
		{"customers by name", []string{sqlCustomerID}}, {"update customer", []string{sqlPayCustomer}},
		{"customer", []string{readSQL[rCustomerPay]}}, {"customer data", []string{readSQL[rCustomerData]}},
		{"update customer data", []string{sqlCustomerData}}, {"insert history", []string{sqlInsertHist}},
	},
	OrderStatus: {
		{"customers by name", []string{sqlCustomerID}}, {"customer", []string{readSQL[rCustomerOS]}},
		{"last order", []string{readSQL[rLastOrder]}}, {"order lines", []string{readSQL[rOrderLines]}},
	},
	Delivery: {
		{"oldest new orders", []string{readSQL[rOldestNew]}}, {"delete new orders", []string{sqlDeleteNew}},
		{"update orders", []string{sqlSetCarrier}}, {"update order lines", []string{sqlDeliverLines}},
		{"order customers", []string{readSQL[rOrderCustomers]}}, {"order lines sums", []string{readSQL[rLinesSums]}},
		{"update customers", []string{sqlDeliverCust}},
	},
	StockLevel: {
		{"next order number", []string{sqlNextOrder}}, {"low stock", []string{sqlLowStock}},
	},
}

// stmtIndex finds a statement's index among its type's by its text (with
// ? placeholders).
var stmtIndex = func() (out [numTypes]map[string]int) {
	for t, stmts := range typeStatements {
		out[t] = map[string]int{}
		for i, s := range stmts {
			for _, q := range s.sql {
				out[t][q] = i
			}
		}
	}
	return out
}()

// StatementNames are the statements' names per type, in the order of
// the types: what the workload's Statements says (the same on every
// engine).
func StatementNames() [][]string {
	out := make([][]string, numTypes)
	for t, stmts := range typeStatements {
		for _, s := range stmts {
			out[t] = append(out[t], s.name)
		}
	}
	return out
}

// start is when a statement began, when statements are timed.
func (c *Client) start() time.Time {
	if c.timer == nil {
		return time.Time{}
	}
	return time.Now()
}

// took hands the time since t0 of the statement sql (its ? text) to the
// timer, when statements are timed.
func (c *Client) took(sql string, t0 time.Time) {
	if c.timer == nil {
		return
	}
	if i, ok := stmtIndex[c.typ][sql]; ok {
		c.timer.Statement(i, time.Since(t0))
	}
}

// exec runs a write and returns the rows it touched.
func (c *Client) exec(ctx context.Context, tx dbms.Transactor, stmt string, args ...any) (int64, error) {
	t0 := c.start()
	n, err := tx.ExecArgs(ctx, stmt, args...)
	c.took(stmt, t0)
	if err != nil {
		return n, fmt.Errorf("%s: %w", firstWords(stmt), err)
	}
	return n, nil
}

// exec1 runs a write and wants it to touch exactly one row.
func (c *Client) exec1(ctx context.Context, tx dbms.Transactor, stmt string, args ...any) error {
	n, err := c.exec(ctx, tx, stmt, args...)
	if err != nil {
		return err
	}
	if n != 1 && n >= 0 {
		return invalid("%s %v: %d rows, want 1", firstWords(stmt), args, n)
	}
	return nil
}

// queryInt runs a read of one integer.
func (c *Client) queryInt(ctx context.Context, tx dbms.Transactor, stmt string, args ...any) (int64, error) {
	t0 := c.start()
	v, err := tx.QueryInt(ctx, stmt, args...)
	c.took(stmt, t0)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", firstWords(stmt), err)
	}
	return v, nil
}

// query runs read i with args, its rows into c.res.
func (c *Client) query(ctx context.Context, i int, args ...any) error {
	c.args = append(c.args[:0], args...)
	t0 := c.start()
	err := c.tq.QueryText(ctx, c.reads[i], c.args, c.cfg.Prepare, &c.res)
	c.took(readSQL[i], t0)
	if err != nil {
		return fmt.Errorf("%s: %w", firstWords(readSQL[i]), err)
	}
	return nil
}
