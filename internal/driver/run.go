package driver

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"
)

// runner is one Run: its configuration, clock and workers.
type runner struct {
	cfg *Config
	// ctx is the run's context; quiet is ctx without its cancellation, for
	// the calls of engines that are aborted instead (iopath.go).
	ctx, quiet context.Context
	// blocking: the sessions block in the kernel (dbms.Aborter), so the
	// workers run on locked threads (iopath.go); set by openAll.
	blocking bool
	base     time.Time // the clock: every time is an offset from base
	open     bool      // open loop
	// resilient: the run retries or reconnects, so transient faults are
	// failed trials waited out with a backoff (attempt.go), not the end.
	resilient bool
	workers   []*worker
	raw       *rawWriter
}

// Run opens every session, then runs cfg.Cycles cycles back to back, calling
// BetweenCycles after each while no load runs. Threads stay connected across
// cycles. It returns what was measured even when it fails: on a cancelled
// ctx (Ctrl-C) with ctx's error, on a fatal error (a reconnect that fails, an
// op error of class Syntax, Unsupported or BadInput, a BetweenCycles error)
// with that error. An error opening the sessions at the start is returned at
// once, with no Result.
//
// Errors of an op are classified with dbms.Classify: the retryable
// classes (dbms.Class.Retryable: Serialization, Deadlock), Timeout and
// unclassified errors are failed trials (rolled back, counted by class, the
// thread goes on). A transient fault (dbms.Class.Transient) is a failed
// trial after which the thread opens a new session in place of the lost
// one: at once, and a failure to do so ends the run; or, with Retry or
// Reconnect, at its next attempt after a capped exponential backoff
// (backoff.go), until the fault has lasted GiveUp.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	r := newRunner(&cfg)
	r.ctx, r.quiet = runCtx, context.WithoutCancel(runCtx)
	defer ensurePs(len(r.workers))()
	if err := r.openAll(runCtx); err != nil {
		r.closeAll()
		return nil, err
	}
	defer r.closeAll()
	if cfg.RawTimes != nil {
		r.raw = newRawWriter(cfg.RawTimes, r.base, len(r.workers))
		for _, w := range r.workers {
			w.raw = r.raw.buffer()
		}
	}

	res := NewResult(r.open)
	var err error
	for i := 1; i <= cfg.Cycles; i++ {
		c, cerr := r.cycle(runCtx, cancel, i)
		if cerr != nil {
			res.Interrupted, err = c, cerr
			break
		}
		res.Add(c)
		if cfg.BetweenCycles != nil {
			if berr := cfg.BetweenCycles(runCtx, i, *c); berr != nil {
				err = fmt.Errorf("after cycle %d: %w", i, berr)
				break
			}
		}
	}
	if r.raw != nil {
		if werr := r.raw.close(); werr != nil && err == nil {
			err = fmt.Errorf("write raw times: %w", werr)
		}
	}
	return res, err
}

func newRunner(cfg *Config) *runner {
	r := &runner{cfg: cfg, base: time.Now(), open: cfg.Rate > 0, resilient: cfg.Retry || cfg.Reconnect}
	all := cfg.allNodes() * cfg.workers()
	for n := cfg.FirstNode; n < cfg.FirstNode+cfg.nodes(); n++ {
		for j := range cfg.workers() {
			// index numbers the worker in the whole load (all nodes).
			w := &worker{r: r, node: n, thread: j, index: n*cfg.workers() + j, op: cfg.NewOp(n, j)}
			rnd := newRand(cfg.Seed, n, j, streamInputs)
			for c := range cfg.connections() {
				w.sessions = append(w.sessions, &Session{Node: n, Thread: j, Conn: c, Rand: rnd})
			}
			w.res = NewHistogram()
			if r.open {
				w.resp, w.lag = NewHistogram(), NewHistogram()
				w.sched = schedule{rate: cfg.Rate, workers: all, index: w.index}
				if cfg.Poisson {
					w.sched.rnd = newRand(cfg.Seed, n, j, streamArrivals)
				}
			}
			if cfg.Progress != nil {
				w.sec = newSecondHist()
			}
			if cfg.Targets > 1 {
				w.targets = newTargetTally(cfg.Targets)
			}
			if cfg.tracksTypes() {
				w.types = newTypeTally(cfg)
				if len(cfg.Types) > 1 && cfg.Progress != nil {
					w.live.types = newLiveTypes(cfg.numTypes())
				}
				if cfg.timesStatements() {
					for _, s := range w.sessions {
						s.timed, s.stmts = true, make([]stmtTime, 0, 16)
					}
				}
			}
			w.timer = time.NewTimer(time.Hour)
			w.timer.Stop()
			w.backoff = NewBackoff(cfg.BackoffCap, cfg.GiveUp, newRand(cfg.Seed, n, j, streamBackoff))
			r.workers = append(r.workers, w)
		}
	}
	return r
}

// cycle runs cycle i and gathers what the workers measured. Threads = 0
// with one node runs the one worker on the calling goroutine (seed 001's
// "main thread"); otherwise every worker has a goroutine for the cycle.
func (r *runner) cycle(ctx context.Context, cancel context.CancelCauseFunc, i int) (*CycleResult, error) {
	if err := r.waitStart(ctx, i); err != nil {
		return nil, err
	}
	start := time.Since(r.base)
	end := start + r.cfg.Duration
	if r.cfg.Duration == 0 {
		end = noEnd // Transactions ends it
	}
	stopProgress := r.startProgress(i, start)
	run := func(w *worker) {
		if err := w.runCycle(ctx, i, start, end); err != nil {
			cancel(err) // the first cause wins; the others stop on ctx
		}
		if w.raw != nil {
			w.raw.flush()
		}
	}
	if r.cfg.Threads == 0 && len(r.workers) == 1 {
		onThread(r.blocking, func() { run(r.workers[0]) })
	} else {
		var wg sync.WaitGroup
		for _, w := range r.workers {
			wg.Go(func() { onThread(r.blocking, func() { run(w) }) })
		}
		wg.Wait()
	}
	stopped := time.Since(r.base)
	stopProgress()
	c := r.collect(i, start, end, stopped)
	if ctx.Err() != nil {
		return c, context.Cause(ctx)
	}
	return c, nil
}

// noEnd is the end of a cycle that only Config.Transactions ends.
const noEnd = time.Duration(math.MaxInt64)

// waitStart waits for the time Config.CycleStart gives cycle i, if any.
func (r *runner) waitStart(ctx context.Context, i int) error {
	if r.cfg.CycleStart == nil {
		return nil
	}
	at, err := r.cfg.CycleStart(ctx, i)
	if err != nil {
		return err
	}
	t := time.NewTimer(time.Until(at))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}

// collect builds the cycle's result from the workers and resets their
// histograms for the next cycle. It runs while no worker does.
func (r *runner) collect(i int, start, end, stopped time.Duration) *CycleResult {
	demanded := r.cfg.Duration
	if end == noEnd {
		end, demanded = stopped, stopped-start
	}
	c := &CycleResult{
		Cycle: i, Start: r.base.Add(start), End: r.base.Add(end), Stopped: r.base.Add(stopped),
		Demanded: demanded, Totals: NewTotals(r.open),
	}
	for _, w := range r.workers {
		t := ThreadResult{
			Node: w.node, Thread: w.thread,
			Committed: w.committed, Failed: w.failed, Retries: w.retries, Late: w.late,
			Reconnects: w.reconnects, Errors: w.errors, SumResidence: w.sumResidence,
			Intended: w.intended, Missed: w.missed,
			Residence: newPacked(),
		}
		if w.committed > 0 {
			t.Effective = w.last - w.first
		}
		t.Residence.MergeFrom(w.res)
		t.Targets = w.targets.take()
		c.Residence.Merge(w.res)
		w.res.Reset()
		if r.open {
			c.Response.Merge(w.resp)
			c.Lag.Merge(w.lag)
			w.resp.Reset()
			w.lag.Reset()
		}
		c.AddThread(t)
		if w.types.committed != nil {
			c.Types = addTypes(c.Types, w.types.take(r.cfg))
		}
	}
	if len(r.cfg.Types) == 1 && !r.cfg.tracksTypes() {
		c.Types = oneType(r.cfg.Types[0], &c.Totals)
	}
	return c
}

// NewResult is an empty result with its histograms; Response and Lag only
// for the open loop.
func NewResult(open bool) *Result { return &Result{Totals: NewTotals(open)} }

// NewTotals are empty totals with their histograms; Response and Lag only
// for the open loop.
func NewTotals(open bool) Totals {
	t := Totals{Residence: NewHistogram()}
	if open {
		t.Response, t.Lag = NewHistogram(), NewHistogram()
	}
	return t
}

// Add counts a completed cycle into the run's totals (remote nodes merge
// their cycles with it).
func (res *Result) Add(c *CycleResult) {
	res.Cycles = append(res.Cycles, *c)
	res.Totals.add(&c.Totals)
}
