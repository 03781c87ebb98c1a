package nodes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
)

// errAborted marks a load the master stopped: not the agent's failure.
var errAborted = errors.New("stopped by the master")

// errMasterEnded stops a load when the master ended the run.
var errMasterEnded = errors.New("the master ended the run")

// runJob runs one job's load and tells the master when its sessions are
// closed, with why it ended early if it did.
func (a *agentRun) runJob(ctx context.Context, j job) {
	a.opt.Log("%s: %d threads x %d connections as node %s of %d, %d cycles of %v", j.Label, max(j.Threads, 1), max(j.Conns, 1),
		results.NodeNumber(j.Node), j.Nodes, j.Cycles, time.Duration(j.DurationNS))
	err := a.load(ctx, j)
	masterGone := func() bool {
		cause := context.Cause(ctx)
		return errors.Is(cause, ErrMasterSilent) || errors.Is(cause, errMasterEnded)
	}
	if masterGone() {
		return // no master to tell: the agent exits now
	}
	f := finished{Name: a.opt.Name, Job: j.ID}
	if err != nil && !errors.Is(err, errAborted) && context.Cause(ctx) == nil {
		f.Err = err.Error()
		a.opt.Log("%s: the load failed: %v", j.Label, err)
	}
	// Told even when the master stopped the load (ctx ended), within
	// MasterSilent, and no longer once serve gave the master up.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), MasterSilent)
	defer cancel()
	defer context.AfterFunc(ctx, func() {
		if masterGone() {
			cancel()
		}
	})()
	_ = a.request(sctx, subjFinished, f, nil)
}

// load builds the job's driver configuration and runs it, each cycle
// started at the master's announced time and reported when it ends.
func (a *agentRun) load(ctx context.Context, j job) error {
	if err := checkRoom(j, sysinfo.ReadCapacity()); err != nil {
		return err
	}
	b, err := builder(j.Kind)
	if err != nil {
		return err
	}
	l, err := b(ctx, j.Payload, a.opt.Env)
	if err != nil {
		return err
	}
	if l.Close != nil {
		defer l.Close()
	}
	off, err := measureClock(ctx, a.nc)
	if err != nil {
		return err
	}
	a.opt.Log("%s: clock offset from the master %+.3f ms +- %.3f ms", j.Label, ms(off.Offset), ms(off.Error))
	ilog := newIntervalLog(a.opt.Dir, a.run, a.opt.Name, j.Label)
	defer ilog.close()
	cfg := l.Config
	cfg.Nodes, cfg.FirstNode, cfg.AllNodes = 1, j.Node, j.Nodes
	cfg.Threads, cfg.Connections, cfg.Cycles, cfg.Duration = j.Threads, j.Conns, j.Cycles, time.Duration(j.DurationNS)
	cfg.Rate, cfg.Poisson, cfg.Retry, cfg.Reconnect = j.Rate, j.Poisson, j.Retry, j.Reconnect
	cfg.BackoffCap, cfg.GiveUp, cfg.Seed = time.Duration(j.BackoffCapNS), time.Duration(j.GiveUpNS), j.Seed
	// cpu is this process's CPU when the cycle was started: its clients'
	// cost, the agent's own bookkeeping included, goes with each report.
	var cpu float64
	cfg.CycleStart = func(ctx context.Context, i int) (time.Time, error) {
		a.committed.Store(0)
		a.failed.Store(0)
		a.types.Store(nil)
		a.cycle.Store(&cyclePos{job: j.ID, cycle: i})
		var st start
		if err := a.request(ctx, subjReady, ready{Name: a.opt.Name, Job: j.ID, Cycle: i,
			OffsetNS: int64(off.Offset), ErrorNS: int64(off.Error)}, &st); err != nil {
			return time.Time{}, err
		}
		if st.Abort != "" {
			return time.Time{}, fmt.Errorf("%w: %s", errAborted, st.Abort)
		}
		cpu = sysinfo.ProcessCPU()
		// The master's time on this agent's clock.
		return time.Unix(0, st.AtNS).Add(off.Offset), nil
	}
	cfg.BetweenCycles = func(ctx context.Context, i int, c driver.CycleResult) error {
		cpuS := sysinfo.ProcessCPU() - cpu
		var counters map[string]int64
		if l.Counters != nil {
			counters = l.Counters()
		}
		if err := ilog.write(c); err != nil {
			a.opt.Log("%s: interval log: %v", j.Label, err)
		}
		rep, err := newReport(a.opt.Name, j.ID, c, counters)
		if err != nil {
			return err
		}
		rep.CPUSeconds = cpuS
		a.opt.Log("%s cycle %d/%d: %.1f tps, %d committed, %d failed", j.Label, i, j.Cycles, c.TPS(), c.Committed, c.Failed)
		var r reply
		if err := a.request(ctx, subjReport, rep, &r); err != nil {
			return err
		}
		if r.Err != "" {
			return fmt.Errorf("%w: %s", errAborted, r.Err)
		}
		return nil
	}
	cfg.Progress = func(p driver.Progress) {
		a.committed.Store(p.Committed)
		a.failed.Store(p.Failed)
		if p.Types != nil {
			ts := make([]int64, len(p.Types))
			for k, t := range p.Types {
				ts[k] = t.Committed
			}
			a.types.Store(&ts)
		}
	}
	cfg.ProgressEvery = beat / 2
	_, err = driver.Run(ctx, cfg)
	return err
}

// request sends v to subj until the master answers (into out, if not
// nil) or ctx ends: core NATS may lose either message.
func (a *agentRun) request(ctx context.Context, subj string, v any, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	for {
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		var msg *nats.Msg
		msg, err = a.nc.RequestWithContext(rctx, subj, b)
		cancel()
		if err == nil {
			a.heard()
			if out == nil {
				return nil
			}
			return json.Unmarshal(msg.Data, out)
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
