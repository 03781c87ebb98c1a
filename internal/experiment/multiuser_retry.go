package experiment

import (
	"context"
	"math/rand/v2"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/results"
)

// measureOnce is one measurement of n users, repetition rep. A failure is
// a fault of the run, never the user's input (the server was reachable
// when the run began). With Retry, a measurement cut short by a transient
// fault (dbms.Class.Transient: the server restarting, stopped or full) is
// recorded in Retried, never as a result, and measured again after the
// backoff, until the fault has lasted the give-up limit. Users run as
// processes report their errors as text, which has no class: only
// goroutine users are retried.
func (r *multiuserRun) measureOnce(ctx context.Context, n, rep int, scripts [][]Retrieve) (usersRun, error) {
	var b driver.Backoff
	if r.plan.Retry {
		b = driver.NewBackoff(r.plan.BackoffCap, r.plan.GiveUp, rand.New(rand.NewPCG(r.plan.Seed, uint64(n)<<32|uint64(rep))))
	}
	for {
		ur, err := r.start(ctx, scripts)
		if err == nil || ctx.Err() != nil {
			return ur, err
		}
		err = driver.MidRun(err)
		c := dbms.Classify(err)
		if !r.plan.Retry || !c.Transient() {
			return ur, err
		}
		if !b.Down() {
			r.res.Retried = append(r.res.Retried, results.MultiuserRetried{Users: n, Rep: rep, Class: c.String(), Error: err.Error(), Errors: map[string]int64{}})
			r.pr.Line("users %3d  repetition %d/%d  cut short (%s): measured again after a backoff", n, rep, r.plan.Reps, c)
		}
		cut := &r.res.Retried[len(r.res.Retried)-1]
		cut.Attempts++
		cut.Errors[c.String()]++
		r.run.Journal().Append(*cut)
		if werr := b.Wait(ctx, c, err); werr != nil {
			return ur, werr
		}
	}
}
