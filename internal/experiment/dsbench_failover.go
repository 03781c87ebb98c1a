package experiment

import (
	"context"
	"fmt"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// armFault makes the scale's load the one the node fault strikes, if one
// is still to come: the clients tag their transactions and log what they
// are told, and the fault's steps start with the first cycle. Otherwise,
// with --check-acks, the clients tag and log all the same, and the checks
// go into the scale's results.
func (r *dsbenchRun) armFault(ctx context.Context, cfg *driver.Config, sr *results.ScaleResult) *failoverRun {
	fr := r.failover
	if fr == nil {
		if r.plan.CheckAcks {
			r.clients.acks = newAckLog(len(r.clients.per), r.spread != nil)
			sr.Acks = &results.AckCheck{}
			r.ackCheck = sr.Acks
		}
		return nil
	}
	r.failover, r.faulting = nil, fr // once per run
	fr.acks = newAckLog(len(r.clients.per), r.spread != nil)
	r.clients.acks = fr.acks
	r.ackCheck = &fr.res.AckCheck
	cfg.CycleStart = func(_ context.Context, cycle int) (time.Time, error) {
		now := time.Now()
		if cycle == 1 {
			fr.start(ctx, now)
		}
		return now, nil
	}
	return fr
}

// faultDone ends the fault's observation once the scale's load is over
// and stores its figures; a step of the fault that failed (the kill, the
// promotion, the rejoin) fails the run, after what was measured is kept.
func (r *dsbenchRun) faultDone(fr *failoverRun, sr *results.ScaleResult) error {
	r.clients.acks, r.ackCheck = nil, nil
	if a := sr.Acks; a != nil && a.LostAcked > 0 {
		r.pr.Line("scale %-6d %s", sr.Scale, report.AckLine(a))
	}
	if fr == nil {
		return nil
	}
	r.faulting = nil
	f := fr.finish()
	sr.Failover = f
	r.pr.Line("scale %-6d failover: %s", sr.Scale, report.FailoverLine(f))
	if f.Fault != "" {
		return fmt.Errorf("--fault kill-node=%d: %s", f.Node, f.Fault)
	}
	return nil
}

// checkAcked looks for every transaction acknowledged to a client since
// the last check in the database, by its tag (workload.Tagger), while a
// fault is observed or with --check-acks.
func (r *dsbenchRun) checkAcked(ctx context.Context, faults *driver.ErrorCounts, cycle int) error {
	a, into := r.clients.acks, r.ackCheck
	tg, tags := r.w.(workload.Tagger)
	if a == nil || into == nil || !tags {
		return nil
	}
	var found map[int][]int64
	err := r.control(ctx, faults, func(e dbms.Engine) (err error) {
		found, err = tg.ReadTags(ctx, e)
		return err
	})
	if err != nil {
		return err
	}
	acked, lostN, lost := a.check(cycle, found)
	into.Add(acked, lostN, lost)
	if lostN > 0 {
		r.warn(fmt.Sprintf("cycle %d: %d of the %d transactions acknowledged to the clients are missing from the database", cycle, lostN, acked))
	}
	return nil
}
