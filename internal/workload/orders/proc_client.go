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
// placeholders, and what each type's last call returned (procResults):
// a New-Order's number and total in cents, a Payment's customer and its
// balance after, an Order-Status's customer, balance, order and number
// of lines, a Delivery's skipped districts, a Stock-Level's count.
type procState struct {
	calls [numTypes]string
	out   [numTypes][4]int64
}

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

// callProcedure runs the drawn transaction as one call of its procedure:
// begin at the run's isolation level, call with the drawn inputs, read
// what the procedure returns, commit, and count what the inputs were as
// the statements form counts them. The unused item's signal rolls back
// here (ErrRollback).
func (c *Client) callProcedure(ctx context.Context, s *workload.Session) error {
	if c.typ == Payment {
		c.tag = ""
		if c.cfg.Tagged {
			c.tag = tagText(s.TakeTag())
		}
	}
	c.procArgs()
	if err := c.begin(ctx, s.Tx); err != nil {
		return err
	}
	err := c.tq.QueryText(ctx, c.proc.calls[c.typ], c.args, c.cfg.Prepare, &c.res)
	if err != nil {
		err = procSignal(fmt.Errorf("%s: %w", procNames[c.typ], err))
	}
	if errors.Is(err, ErrRollback) {
		if rerr := s.Tx.Rollback(ctx); rerr != nil {
			return fmt.Errorf("roll back the unused item's order: %w", rerr)
		}
		// Only an order drawn with the unused item may roll back by
		// design: any other item missing means the database is not the
		// workload's.
		if c.typ != NewOrder || !c.no.rollback {
			return invalid("%s: an item of an order drawn without the unused one is missing: %v", procNames[c.typ], err)
		}
		c.countDrawn(true)
		return ErrRollback
	}
	if err != nil {
		return err
	}
	if err := c.procResult(); err != nil {
		return err
	}
	if err := commit(ctx, s.Tx); err != nil {
		return err
	}
	c.countDrawn(false)
	return nil
}

// procArgs are the drawn type's arguments, in c.args.
func (c *Client) procArgs() {
	a := c.args[:0]
	switch c.typ {
	case NewOrder:
		in := &c.no
		c.buf = appendLines(c.buf[:0], in)
		a = append(a, in.w, in.d, in.c, int64(in.n), flag(in.allLocal), string(c.buf))
	case Payment:
		in := &c.pay
		a = append(a, in.w, in.d, in.cw, in.cd, flag(in.cust.byName), in.cust.c, in.cust.last, formatCents(in.amount), c.tag)
	case OrderStatus:
		in := &c.os
		a = append(a, in.w, in.d, flag(in.cust.byName), in.cust.c, in.cust.last)
	case Delivery:
		a = append(a, c.del.w, c.del.carrier)
	default:
		a = append(a, c.sl.w, c.sl.d, c.sl.threshold)
	}
	c.args = a
}

// flag is a boolean argument: 1 or 0.
func flag(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// procResults are the values each type's procedure returns and their
// scales (0: an integer; 2: cents).
var procResults = [numTypes][]int{NewOrder: {0, 2}, Payment: {0, 2}, OrderStatus: {0, 2, 0, 0}, Delivery: {0}, StockLevel: {0}}

// procResult reads the one row the drawn type's procedure returned into
// c.proc.out, and where the statements form keeps its output (the
// Stock-Level count).
func (c *Client) procResult() error {
	scales := procResults[c.typ]
	if len(c.res.Rows) != 1 || len(c.res.Rows[0]) != len(scales) {
		return invalid("%s %v: rows %v, want one of %d values", procNames[c.typ], c.args, c.res.Rows, len(scales))
	}
	out := c.proc.out[c.typ][:len(scales)]
	for i, sc := range scales {
		v, err := parseFixed(c.res.Rows[0][i], sc)
		if err != nil {
			return invalid("%s: value %d of %v: %v", procNames[c.typ], i+1, c.res.Rows[0], err)
		}
		out[i] = v
	}
	switch c.typ {
	case OrderStatus:
		if out[3] < MinLines {
			return invalid("order %d of district %d of warehouse %d has %d lines, want 5..15", out[2], c.os.d, c.os.w, out[3])
		}
	case StockLevel:
		c.lowStock = out[0]
	}
	return nil
}

// countDrawn sets what the attempt adds to the audit once complete: the
// drawn type and its inputs (rolledBack: a New-Order rolled back by
// design; a Delivery's skipped districts are what its procedure
// returned).
func (c *Client) countDrawn(rolledBack bool) {
	p := &c.pending
	switch c.typ {
	case NewOrder:
		p.NewOrders, p.Lines, p.RemoteLines = 1, int64(c.no.n), c.no.remote
		if rolledBack {
			p.Rollbacks = 1
		}
	case Payment:
		p.Payments, p.RemotePayments, p.PaymentsByName = 1, flag(c.pay.remote), flag(c.pay.cust.byName)
	case OrderStatus:
		p.OrderStatuses, p.OrderStatusesByName = 1, flag(c.os.cust.byName)
	case Delivery:
		p.Deliveries, p.SkippedDistricts = 1, c.proc.out[Delivery][0]
	default:
		p.StockLevels = 1
	}
}
