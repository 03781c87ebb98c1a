package experiment

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/results"
)

// resilient says whether the sweep waits out transient faults (retry or
// reconnect) instead of ending at the first.
func (p DSBenchPlan) resilient() bool { return p.Retry || p.Reconnect }

// backoff is the backoff's cap and give-up limit in seconds, defaults
// filled in, as results.json records them.
func (p DSBenchPlan) backoff() (capS, giveUpS float64) { return backoffSeconds(p.BackoffCap, p.GiveUp) }

// backoffSeconds is a backoff's cap and give-up limit in seconds, the
// driver's defaults in place of 0.
func backoffSeconds(c, g time.Duration) (capS, giveUpS float64) {
	if c <= 0 {
		c = driver.DefaultBackoffCap
	}
	if g <= 0 {
		g = driver.DefaultGiveUp
	}
	return c.Seconds(), g.Seconds()
}

// streamControl seeds the control session's backoff jitter, apart from the
// clients' streams.
const streamControl = 0xc0

// control runs f on the control session (the consistency check, the
// cleanup, a new session per scale). In a resilient sweep a transient
// fault (the server restarting) closes the session, waits the backoff, opens
// a new one and runs f again, until the fault has lasted the give-up
// limit; each fault is counted by class in faults. Otherwise f runs once.
// A control session closed before (r.e nil) is opened first.
func (r *dsbenchRun) control(ctx context.Context, faults *driver.ErrorCounts, f func(dbms.Engine) error) error {
	var b driver.Backoff
	if r.plan.resilient() {
		b = driver.NewBackoff(r.plan.BackoffCap, r.plan.GiveUp, rand.New(rand.NewPCG(r.plan.Seed, streamControl)))
	}
	for {
		var err error
		if r.e == nil {
			err = r.reopen(ctx)
		}
		if err == nil {
			err = f(r.e)
		}
		if err == nil {
			return nil
		}
		c := dbms.Classify(err)
		if !r.plan.resilient() || !c.Transient() || ctx.Err() != nil {
			return err
		}
		faults[c]++
		if r.e != nil {
			r.e.Close()
			r.e, r.opened.e = nil, nil
		}
		if werr := b.Wait(ctx, c, err); werr != nil {
			return werr
		}
	}
}

// scaleFaults stores what faults cost the scale's completed cycles: totals
// by class, reconnects and commits in doubt, and one entry per cycle that
// had faults of the connection or the server (checkErrs and inDoubt are
// per cycle, from the checks).
func scaleFaults(sr *results.ScaleResult, d *driver.Result, checkErrs map[int]*driver.ErrorCounts, inDoubt map[int]int64) {
	sr.Errors, sr.Reconnects = d.Errors.Map(), d.Reconnects
	for _, c := range d.Cycles {
		f := results.CycleFaults{Cycle: c.Cycle, Start: c.Start.UTC().Truncate(time.Second), End: c.End.UTC().Add(time.Second - 1).Truncate(time.Second),
			Errors: c.Errors.Map(), Reconnects: c.Reconnects, InDoubt: inDoubt[c.Cycle]}
		if ce := checkErrs[c.Cycle]; ce != nil {
			f.CheckErrors = ce.Map()
		}
		sr.InDoubt += f.InDoubt
		// Conflicts and time-outs are the load's own; a cycle is listed
		// for faults of the connection or the server.
		if c.Errors.Transient() > 0 || f.Reconnects > 0 || f.InDoubt > 0 || f.CheckErrors != nil {
			sr.Faults = append(sr.Faults, f)
		}
	}
}
