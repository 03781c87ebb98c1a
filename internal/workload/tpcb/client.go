package tpcb

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// tpcbClient runs the TPC-B transaction in the form its config asks for.
// Inputs are drawn on the first attempt only, so a retry repeats them
// (seed 001 §2.4).
type tpcbClient struct {
	cfg workload.ClientConfig
	in  Inputs
}

func (c *tpcbClient) statements() []string {
	switch {
	case c.cfg.Procedure != nil:
		return c.cfg.Procedure.Calls
	case c.cfg.Tagged:
		return TaggedStatements
	}
	return Statements
}

func (c *tpcbClient) Setup(ctx context.Context, tx dbms.Transactor) error {
	if !c.cfg.Prepare {
		return nil
	}
	return prepare(ctx, tx, c.statements())
}

func (c *tpcbClient) Run(ctx context.Context, s *workload.Session) (int, error) {
	if s.Attempt == 0 {
		Draw(s.Rand, s.Scale, &c.in)
	}
	switch {
	case c.cfg.Procedure != nil:
		return 0, CallProcedure(ctx, s.Tx, c.cfg.Procedure, c.cfg.Isolation, &c.in)
	case c.cfg.Tagged:
		return 0, TaggedTransaction(ctx, s.Tx, c.cfg.Isolation, &c.in, Tag(s.TakeTag()))
	}
	return 0, Transaction(ctx, s.Tx, c.cfg.Isolation, &c.in)
}

// selectClient runs the SELECT transaction.
type selectClient struct {
	prepare bool
	aid     int64
}

func (c *selectClient) Setup(ctx context.Context, tx dbms.Transactor) error {
	if !c.prepare {
		return nil
	}
	return prepare(ctx, tx, []string{StmtSelectAccount})
}

func (c *selectClient) Run(ctx context.Context, s *workload.Session) (int, error) {
	if s.Attempt == 0 {
		c.aid = DrawAccount(s.Rand, s.Scale)
	}
	return 0, Select(ctx, s.Tx, c.aid)
}

func prepare(ctx context.Context, tx dbms.Transactor, stmts []string) error {
	for _, st := range stmts {
		if err := tx.Prepare(ctx, st); err != nil {
			return fmt.Errorf("prepare %q: %w", st, err)
		}
	}
	return nil
}
