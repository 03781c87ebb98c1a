package driver

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// connect opens a new session into s and runs Setup on it.
func (r *runner) connect(ctx context.Context, s *Session) error {
	s.Target = 0
	e, err := r.cfg.Open(ctx, s)
	if err != nil {
		return err
	}
	s.Engine = e
	s.Tx, _ = e.(dbms.Transactor)
	r.watchSession(s)
	if r.cfg.Setup != nil {
		if err := r.cfg.Setup(ctx, s); err != nil {
			r.disconnect(s)
			return fmt.Errorf("session setup: %w", err)
		}
	}
	return nil
}

// disconnect closes s's engine, if any. A close error is of no use to
// anyone here: the session is being given up.
func (r *runner) disconnect(s *Session) {
	s.unwatch()
	if s.Engine != nil {
		s.Engine.Close()
	}
	s.Engine, s.Tx = nil, nil
}

// openAll opens every thread's sessions before any load runs (opening is
// not timed). With Reconnect each thread's one session is opened, set up and
// closed once, so a bad URL or Setup fails here rather than mid-cycle.
func (r *runner) openAll(ctx context.Context) error {
	for _, w := range r.workers {
		for _, s := range w.sessions {
			if err := r.connect(ctx, s); err != nil {
				return fmt.Errorf("open session (node %s thread %d connection %d): %w", results.NodeNumber(s.Node), s.Thread, s.Conn, err)
			}
			r.blocking = r.blocking || blocks(s.Engine)
			if r.cfg.Reconnect {
				r.disconnect(s)
			}
		}
	}
	return nil
}

func (r *runner) closeAll() {
	for _, w := range r.workers {
		for _, s := range w.sessions {
			r.disconnect(s)
		}
	}
}
