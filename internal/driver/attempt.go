package driver

import (
	"context"
	"errors"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// attempt runs the op once on s, first opening s's session when it has
// none (Reconnect, or lost earlier). failed is the attempt's error (a
// failed trial, already rolled back) and class its class; fatal is an
// error that ends the run: the context is done, the op's error is of a
// class no repetition can cure (syntax, unsupported, bad input: a run of
// nothing but failed trials would measure nothing), or, when the run
// neither retries nor reconnects, a lost session could not be replaced.
//
// When the run retries or reconnects (runner.resilient), a transient fault
// (dbms.Class.Transient: the connection lost or refused, the server
// shutting down, starting or full) is a failed trial like any other: the
// session is dropped and opened again at the next attempt, after the
// worker's backoff.
func (w *worker) attempt(ctx context.Context, s *Session) (failed error, class dbms.Class, fatal error) {
	if s.Engine == nil {
		if s.lost {
			w.reconnects++
		}
		if err := w.r.connect(ctx, s); err != nil {
			if ctx.Err() != nil {
				return nil, 0, context.Cause(ctx)
			}
			err = midRun(err)
			c := dbms.Classify(err)
			if !w.r.resilient || !c.Transient() {
				return nil, c, w.fatal(ctx, "open session", err)
			}
			s.lost = true
			return err, c, nil
		}
		s.lost = false
	}
	if w.r.cfg.Reconnect {
		defer w.r.disconnect(s)
	}
	err := w.op(w.r.opContext(s), s)
	if err == nil || errors.Is(err, ErrSkip) || errors.Is(err, ErrStop) {
		return err, 0, nil
	}
	if ctx.Err() != nil {
		return nil, 0, context.Cause(ctx)
	}
	c := dbms.Classify(err)
	switch {
	case c == dbms.Syntax, c == dbms.Unsupported, c == dbms.BadInput, c == dbms.Invalid:
		return nil, c, w.fatal(ctx, c.String()+" error", err)
	case c.Transient():
		return err, c, w.lose(ctx, s, c, err)
	case s.Tx != nil:
		if rerr := s.Tx.Rollback(w.r.opContext(s)); rerr != nil && !w.r.cfg.Reconnect {
			// The session's state is unknown: start afresh.
			return err, c, w.lose(ctx, s, dbms.Classify(rerr), fmt.Errorf("rollback: %w", rerr))
		}
	}
	return err, c, nil
}

// lose gives up s's session after the failure cause of class c. A
// resilient run opens the next one at its next attempt, after the backoff;
// otherwise it is replaced at once, and a failure to do so ends the run.
func (w *worker) lose(ctx context.Context, s *Session, c dbms.Class, cause error) error {
	if w.r.resilient {
		w.r.disconnect(s)
		s.lost = true
		return nil
	}
	return w.replace(ctx, s, c, cause)
}

// replace closes s's engine and opens a new session in its place. When
// that fails the run ends with both faults in words: why the session went
// and why no other could be had.
func (w *worker) replace(ctx context.Context, s *Session, c dbms.Class, cause error) error {
	w.r.disconnect(s)
	w.reconnects++
	if err := w.r.connect(ctx, s); err != nil {
		what := fmt.Sprintf("session failed (%s: %v) and no new one could be opened (a run that retries or reconnects waits for the server)", c, cause)
		return w.fatal(ctx, what, midRun(err))
	}
	return nil
}

// fatal names the worker in a fatal error; a done context wins, since its
// cause is why the call failed.
func (w *worker) fatal(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return fmt.Errorf("node %s thread %d: %s: %w", results.NodeNumber(w.node), w.thread, what, err)
}

// MidRun is midRun for the sessions a run opens beside the driver's (a
// control session between cycles).
func MidRun(err error) error { return midRun(err) }

// midRun marks a failure to open a session during the run as a fault of
// the connection: the adapters call an unreachable server the user's
// mistake (bad input), which it is at the start but not once the run has
// measured. A refused connection stays refused (the server is down or
// restarting); anything else is a lost connection.
func midRun(err error) error {
	if dbms.Classify(err) != dbms.BadInput {
		return err
	}
	if dbms.IsNetwork(err) {
		return dbms.Wrap(dbms.NetworkClass(err), err)
	}
	return dbms.Wrap(dbms.ConnectionLost, err)
}
