package driver

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// TestTargets spreads 3 threads x 2 connections over 3 targets (the
// connection's number picks it, so each thread's trials go to two) and
// checks that every commit and failed trial is counted for the target its
// session was on: per thread, per cycle, and that they add up.
func TestTargets(t *testing.T) {
	open, _, _ := sqliteDB(t)
	const threads, conns, cycles, targets = 3, 2, 2, 3
	cfg := Config{
		Threads: threads, Connections: conns, Cycles: cycles, Duration: 150 * time.Millisecond, Targets: targets,
		Open: func(ctx context.Context, s *Session) (dbms.Engine, error) {
			s.Target = (s.Thread + s.Conn) % targets
			return open(ctx, s)
		},
		// The trials do no work in the database: what is checked is
		// their counting. How many a thread finishes in a cycle is the
		// machine's to say: under load a thread was seen to get the CPU
		// for one trial of a 150 ms cycle (and a write to the file to
		// take a whole cycle), so only the run as a whole must hold
		// both kinds for the check to mean something.
		NewOp: func(node, thread int) Op {
			n := 0
			return func(ctx context.Context, s *Session) error {
				n++
				if n%3 == 0 {
					return errPlanned
				}
				return nil
			}
		},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var runCommitted, runFailed int64
	for _, c := range res.Cycles {
		for _, th := range c.Threads {
			runCommitted, runFailed = runCommitted+th.Committed, runFailed+th.Failed
			var committed, failed, hist int64
			for _, tr := range th.Targets {
				if tr.Target != th.Thread%targets && tr.Target != (th.Thread+1)%targets {
					t.Errorf("cycle %d thread %d: trials on target %d, its sessions are on %d and %d", c.Cycle, th.Thread, tr.Target, th.Thread%targets, (th.Thread+1)%targets)
				}
				committed += tr.Committed
				failed += tr.Failed
				hist += tr.Residence.TotalCount()
				var classes int64
				for _, n := range tr.Errors {
					classes += n
				}
				if classes != tr.Failed {
					t.Errorf("target %d: errors by class %d, failed %d", tr.Target, classes, tr.Failed)
				}
			}
			if committed != th.Committed || failed != th.Failed || hist != th.Committed {
				t.Errorf("cycle %d thread %d: targets committed %d failed %d (histograms %d); the thread %d and %d",
					c.Cycle, th.Thread, committed, failed, hist, th.Committed, th.Failed)
			}
		}
		var committed int64
		by := c.ByTarget()
		for i, tr := range by {
			if tr.Target != i {
				t.Errorf("cycle %d: ByTarget()[%d] is target %d", c.Cycle, i, tr.Target)
			}
			committed += tr.Committed
		}
		if len(by) != targets || committed != c.Committed {
			t.Errorf("cycle %d: %d targets with %d commits; the cycle %d", c.Cycle, len(by), committed, c.Committed)
		}
	}
	if runCommitted == 0 || runFailed == 0 {
		t.Errorf("the run counted %d commits and %d failed trials: want some of both", runCommitted, runFailed)
	}
}

var errPlanned = errors.New("test: planned failure")

// TestNoTargets: a load on one server keeps no per-target counts.
func TestNoTargets(t *testing.T) {
	open, _, _ := sqliteDB(t)
	res, err := Run(context.Background(), Config{
		Threads: 1, Cycles: 1, Duration: 50 * time.Millisecond, Open: open,
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error { return insert(ctx, s, 1, false) }
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if th := res.Cycles[0].Threads[0]; th.Targets != nil || res.Cycles[0].ByTarget() != nil {
		t.Errorf("targets %v without Config.Targets", th.Targets)
	}
}
