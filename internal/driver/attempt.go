package driver

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// attempt runs the op once on s. failed is the op's error (a failed trial,
// already rolled back); fatal is an error that ends the run: the context is
// done, a new session could not be opened, or the op's error is of a class
// no repetition can cure (syntax, unsupported, bad input: a run of nothing
// but failed trials would measure nothing).
func (w *worker) attempt(ctx context.Context, s *Session) (failed, fatal error) {
	if w.r.cfg.Reconnect {
		if err := w.r.connect(ctx, s); err != nil {
			return nil, w.fatal(ctx, "open session", midRun(err))
		}
		defer w.r.disconnect(s)
	}
	err := w.op(w.r.opContext(s), s)
	if err == nil {
		return nil, nil
	}
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	switch c := dbms.Classify(err); c {
	case dbms.Syntax, dbms.Unsupported, dbms.BadInput, dbms.Invalid:
		return nil, w.fatal(ctx, c.String()+" error", err)
	case dbms.ConnectionLost:
		if !w.r.cfg.Reconnect {
			return err, w.replace(ctx, s)
		}
	default:
		if s.Tx != nil {
			if rerr := s.Tx.Rollback(w.r.opContext(s)); rerr != nil && !w.r.cfg.Reconnect {
				// The session's state is unknown: start afresh.
				return err, w.replace(ctx, s)
			}
		}
	}
	return err, nil
}

// replace closes s's engine and opens a new session in its place.
func (w *worker) replace(ctx context.Context, s *Session) error {
	w.r.disconnect(s)
	w.reconnects++
	if err := w.r.connect(ctx, s); err != nil {
		return w.fatal(ctx, "reconnect", midRun(err))
	}
	return nil
}

// fatal names the worker in a fatal error; a done context wins, since its
// cause is why the call failed.
func (w *worker) fatal(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return fmt.Errorf("node %d thread %d: %s: %w", w.node, w.thread, what, err)
}

// midRun marks a failure to open a session during the run as a lost
// connection: the adapters call an unreachable server the user's mistake
// (bad input), which it is at the start but not once the run has measured.
func midRun(err error) error {
	if dbms.Classify(err) == dbms.BadInput {
		return dbms.Wrap(dbms.ConnectionLost, err)
	}
	return err
}
