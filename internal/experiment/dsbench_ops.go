package experiment

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/workload/tpcb"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// driverConfig is the load of one scale: the clients, the cycles, and per
// thread an Op that runs the workload's transaction in the chosen form.
func (r *dsbenchRun) driverConfig(x int64, between func(context.Context, int, driver.CycleResult) error) (driver.Config, func() error) {
	p := r.plan
	cfg := driver.Config{
		Nodes: p.Nodes, Threads: p.Threads, Connections: p.Conns,
		Cycles: p.Cycles, Duration: p.Duration,
		Retry: p.Retry, Reconnect: p.Reconnect, BackoffCap: p.BackoffCap, GiveUp: p.GiveUp, Rate: p.Rate,
		Seed:          scaleSeed(p.Seed, x),
		Open:          func(ctx context.Context) (dbms.Engine, error) { return dbms.Open(ctx, r.url) },
		Setup:         r.setupClient,
		NewOp:         r.newOp,
		BetweenCycles: between,
		Progress: func(pg driver.Progress) {
			r.pr.Live("scale %d cycle %d/%d %4.0f%%  %8.1f tps  %d committed  %d failed", x, pg.Cycle, pg.Cycles,
				100*pg.Elapsed.Seconds()/pg.Duration.Seconds(), pg.TPS, pg.Committed, pg.Failed)
		},
	}
	closeRaw := func() error { return nil }
	if p.RawTimes {
		f, err := os.Create(r.run.Path(fmt.Sprintf("raw_times_scale%d.txt", x)))
		if err == nil {
			cfg.RawTimes, closeRaw = f, f.Close
		} else {
			r.warn("raw times not written: " + err.Error())
		}
	}
	return cfg, closeRaw
}

// statements are what a client session prepares with --prepare.
func (r *dsbenchRun) statements() []string {
	switch {
	case r.plan.Mode == modeSelect:
		return []string{tpcb.StmtSelectAccount}
	case r.proc != nil:
		return []string{r.proc.Call}
	}
	return tpcb.Statements
}

// setupClient runs on every new client session.
func (r *dsbenchRun) setupClient(ctx context.Context, s *driver.Session) error {
	if s.Tx == nil {
		return fmt.Errorf("%s sessions cannot run transactions with arguments", s.Engine.Name())
	}
	if !r.plan.Prepare {
		return nil
	}
	for _, st := range r.statements() {
		if err := s.Tx.Prepare(ctx, st); err != nil {
			return fmt.Errorf("prepare %q: %w", st, err)
		}
	}
	return nil
}

// newOp is one thread's transaction. Inputs are drawn on the first attempt
// only, so a retry repeats them (seed 001 §2.4).
func (r *dsbenchRun) newOp(node, thread int) driver.Op {
	idx := node*max(r.plan.Threads, 1) + thread
	in := &tpcb.Inputs{}
	iso := r.plan.Isolation
	return func(ctx context.Context, s *driver.Session) error {
		x := r.scale.Load()
		var err error
		switch {
		case r.plan.Mode == modeSelect:
			if s.Attempt == 0 {
				in.Aid = tpcb.DrawAccount(s.Rand, x)
			}
			err = tpcb.Select(ctx, s.Tx, in.Aid)
		case r.proc != nil:
			if s.Attempt == 0 {
				tpcb.Draw(s.Rand, x, in)
			}
			err = tpcb.CallProcedure(ctx, s.Tx, r.proc, iso, in)
		default:
			if s.Attempt == 0 {
				tpcb.Draw(s.Rand, x, in)
			}
			err = tpcb.Transaction(ctx, s.Tx, iso, in)
		}
		if err == nil {
			r.commits[idx].Add(1)
		} else if errors.Is(err, tpcb.ErrCommitInDoubt) {
			r.inDoubt[idx].Add(1)
		}
		return err
	}
}

// writeHistogramLog writes the residence times of every cycle of a scale as
// an HdrHistogram interval log (the interchange format).
func writeHistogramLog(run *results.Run, name string, d *driver.Result) error {
	var b bytes.Buffer
	lw := hdr.NewHistogramLogWriter(&b)
	if len(d.Cycles) == 0 {
		return nil
	}
	base := d.Cycles[0].Start
	lw.OutputComment("dbgauge residence times, microseconds, one interval per cycle")
	lw.OutputLogFormatVersion()
	lw.OutputStartTime(base.UnixMilli())
	lw.OutputLegend()
	lw.SetBaseTime(base.UnixMilli())
	for _, c := range d.Cycles {
		if c.Residence == nil {
			continue
		}
		h := hdr.Import(c.Residence.Export())
		h.SetStartTimeMs(c.Start.UnixMilli())
		h.SetEndTimeMs(c.End.UnixMilli())
		h.SetTag(fmt.Sprintf("cycle%d", c.Cycle))
		if err := lw.OutputIntervalHistogram(h); err != nil {
			return err
		}
	}
	return run.WriteFile(name, b.Bytes())
}
