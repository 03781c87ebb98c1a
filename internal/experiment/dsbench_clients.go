package experiment

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/workload/tpcb"
)

// dsbenchClients is what a sweep's client sessions run: the transaction
// in the chosen form, and the counts the consistency check needs. The
// master's local load and a remote agent's load use it alike.
type dsbenchClients struct {
	mode      string
	prepare   bool
	isolation dbms.Isolation
	threads   int // per node
	// proc is the procedure form's procedure (nil: the statements form).
	proc *tpcb.Procedure
	// scale is the scale being measured (read by the threads' ops and the
	// load sampler's goroutine).
	scale atomic.Int64
	// commits counts, per thread, every transaction that committed (also
	// after a cycle's end): the history must hold exactly that many rows.
	commits []atomic.Int64
	// inDoubt counts, per thread, the commits lost with their connection
	// (tpcb.ErrCommitInDoubt) since the last check: each may be in the
	// history.
	inDoubt []atomic.Int64
	// acks, set while a node fault's scale runs or with --check-acks, is
	// each client thread's log of what it was told: its transactions are
	// tagged (failover.go).
	acks *ackLog
	// session are the statements every client session runs first.
	session []string
}

func newDSBenchClients(mode string, prepare bool, iso dbms.Isolation, threads, nodes int, proc *tpcb.Procedure) *dsbenchClients {
	n := max(nodes, 1) * max(threads, 1)
	return &dsbenchClients{mode: mode, prepare: prepare, isolation: iso, threads: max(threads, 1), proc: proc,
		commits: make([]atomic.Int64, n), inDoubt: make([]atomic.Int64, n)}
}

// take returns the commits and commits in doubt counted since the last
// call, and starts counting again.
func (c *dsbenchClients) take() (committed, inDoubt int64) {
	for i := range c.commits {
		committed += c.commits[i].Swap(0)
		inDoubt += c.inDoubt[i].Swap(0)
	}
	return committed, inDoubt
}

// statements are what a client session prepares with --prepare.
func (c *dsbenchClients) statements() []string {
	switch {
	case c.mode == modeSelect:
		return []string{tpcb.StmtSelectAccount}
	case c.proc != nil:
		return []string{c.proc.Call}
	case c.acks != nil:
		return tpcb.TaggedStatements
	}
	return tpcb.Statements
}

// setupClient runs on every new client session.
func (c *dsbenchClients) setup(ctx context.Context, s *driver.Session) error {
	if s.Tx == nil {
		return fmt.Errorf("%s sessions cannot run transactions with arguments", s.Engine.Name())
	}
	if err := runSession(ctx, s.Engine, c.session); err != nil {
		return err
	}
	if !c.prepare {
		return nil
	}
	for _, st := range c.statements() {
		if err := s.Tx.Prepare(ctx, st); err != nil {
			return fmt.Errorf("prepare %q: %w", st, err)
		}
	}
	return nil
}

// runSession runs a client session's first statements (--session).
func runSession(ctx context.Context, e dbms.Engine, stmts []string) error {
	for _, st := range stmts {
		if _, err := e.Exec(ctx, st); err != nil {
			return fmt.Errorf("--session %q: %w", st, err)
		}
	}
	return nil
}

// newOp is one thread's transaction. Inputs are drawn on the first attempt
// only, so a retry repeats them (seed 001 §2.4).
func (c *dsbenchClients) newOp(node, thread int) driver.Op {
	idx := c.client(node, thread)
	in := &tpcb.Inputs{}
	iso := c.isolation
	return func(ctx context.Context, s *driver.Session) error {
		x := c.scale.Load()
		var err error
		var seq int64 // the tag's sequence number; 0: untagged
		a := c.acks
		switch {
		case c.mode == modeSelect:
			if s.Attempt == 0 {
				in.Aid = tpcb.DrawAccount(s.Rand, x)
			}
			err = tpcb.Select(ctx, s.Tx, in.Aid)
		case c.proc != nil:
			if s.Attempt == 0 {
				tpcb.Draw(s.Rand, x, in)
			}
			err = tpcb.CallProcedure(ctx, s.Tx, c.proc, iso, in)
		case a != nil:
			if s.Attempt == 0 {
				tpcb.Draw(s.Rand, x, in)
			}
			var tag string
			seq, tag = a.next(idx)
			err = tpcb.TaggedTransaction(ctx, s.Tx, iso, in, tag)
		default:
			if s.Attempt == 0 {
				tpcb.Draw(s.Rand, x, in)
			}
			err = tpcb.Transaction(ctx, s.Tx, iso, in)
		}
		if err == nil {
			c.commits[idx].Add(1)
		} else if errors.Is(err, tpcb.ErrCommitInDoubt) {
			c.inDoubt[idx].Add(1)
		}
		if a != nil {
			a.done(idx, seq, s.Target, err)
		}
		return err
	}
}

// client is the index of a node's thread among the counts: nodes are
// numbered over the whole load, and an agent counts its own node's
// threads only.
func (c *dsbenchClients) client(node, thread int) int {
	return (node*c.threads + thread) % len(c.commits)
}

// opener is the clients' driver.Config.Open: a session on url, or on a
// cluster (sp) the session of client k placed by the spread, which says
// the node it went to. conns is the connections per thread.
func (c *dsbenchClients) opener(url string, sp *spread, conns int) func(context.Context, *driver.Session) (dbms.Engine, error) {
	if sp == nil {
		return func(ctx context.Context, _ *driver.Session) (dbms.Engine, error) { return dbms.Open(ctx, url) }
	}
	writes := c.mode != modeSelect
	return func(ctx context.Context, s *driver.Session) (dbms.Engine, error) {
		k := (s.Node*c.threads+s.Thread)*max(conns, 1) + s.Conn
		e, node, err := sp.open(ctx, k, writes)
		s.Target = node
		if a := c.acks; a != nil && err != nil {
			// Classed as the driver counts it: mid-run, a node that
			// cannot be reached is a fault, not the user's mistake.
			a.failedOpen(c.client(s.Node, s.Thread), driver.MidRun(err))
		}
		return e, err
	}
}
