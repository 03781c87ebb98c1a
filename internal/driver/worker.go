package driver

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// worker is one thread: its sessions, its op and everything it counts. Only
// its own goroutine touches it during a cycle; the coordinator reads and
// resets it between cycles (ordered by the cycle's WaitGroup). Progress reads
// only live, atomically.
type worker struct {
	r            *runner
	node, thread int
	index        int // 0 .. workers of all nodes - 1: its place in the open-loop schedule
	sessions     []*Session
	next         int // round robin over sessions
	op           Op

	tally
	// targets counts per node of a cluster (Config.Targets > 1).
	targets targetTally
	// types counts per transaction type (Config.Types, Statements).
	types          typeTally
	res, resp, lag *hdr.Histogram // this cycle's; resp and lag nil in the closed loop

	sched schedule    // open loop
	timer *time.Timer // the open loop's pacing and the backoff's waits
	raw   *rawBuffer  // nil without RawTimes

	// backoff paces attempts after transient faults when the run retries
	// or reconnects (runner.resilient); its state outlives cycles, since a
	// fault does.
	backoff Backoff

	live live
	// sec holds the residence times of the second running, for the live
	// percentiles of Progress; nil without Config.Progress.
	sec *secondHist
}

// tally is what a worker counts in one cycle; times are offsets from the
// run's clock base.
type tally struct {
	committed, failed, retries, late, reconnects, intended, missed int64
	// skipped counts the transactions an Op skipped (ErrSkip); stopped
	// says it ended the thread's cycle (ErrStop).
	skipped      int64
	stopped      bool
	sumResidence time.Duration
	first, last  time.Duration // first start, last counted commit; first < 0: none yet
	errors       ErrorCounts   // failed trials by class
}

// live holds the counts Progress reads while the worker runs, cumulative
// over the run, on a cache line of its own.
type live struct {
	_         [64]byte
	committed atomic.Int64
	failed    atomic.Int64
	_         [48]byte
	// errors counts failed trials by class, added on the failure path
	// only: a commit never touches them.
	errors [dbms.NumClasses]atomic.Int64
	_      [64]byte
	// types counts commits per type (Config.Types of several), in an
	// array of its own padded on both sides (newLiveTypes); nil otherwise.
	types []atomic.Int64
}

// newLiveTypes is live.types for n types: a cache line of padding either
// side keeps it off other workers' counters.
func newLiveTypes(n int) []atomic.Int64 {
	const pad = 8 // int64s in 64 bytes
	return make([]atomic.Int64, n+2*pad)[pad : pad+n]
}

func (w *worker) clock() time.Duration { return time.Since(w.r.base) }

// runCycle fires transactions from start until end (offsets on the run's
// clock) and returns when the last one has ended. It returns an error only
// when the run must stop: the context is done or an error is fatal.
func (w *worker) runCycle(ctx context.Context, cycle int, start, end time.Duration) error {
	w.tally = tally{first: -1}
	if w.raw != nil {
		w.raw.cycle = cycle
	}
	done := ctx.Done()
	w.sched.begin(start)
	yielded := start
	if err := w.startWait(ctx, end); err != nil {
		return err
	}
	for {
		select {
		case <-done:
			return context.Cause(ctx)
		default:
		}
		now := w.clock()
		if now-yielded >= yieldEvery {
			yielded = now
			yieldThread(w.r.blocking)
		}
		intended := time.Duration(-1)
		if w.r.open {
			intended = w.sched.next()
			if intended >= end {
				return nil
			}
			w.intended++
			if now < intended {
				if err := w.sleep(ctx, intended-now); err != nil {
					return err
				}
				now = w.clock()
			}
			if now >= end {
				// Behind schedule at the end: this start and the rest of the
				// cycle's are missed, counted at once whatever the rate.
				rest := w.sched.skip(end)
				w.intended += rest
				w.missed += 1 + rest
				return nil
			}
		} else if now >= end {
			return nil
		}
		if err := w.transaction(ctx, now, intended, end); err != nil {
			return err
		}
		if w.stopped || w.r.cfg.Transactions > 0 && w.committed+w.failed+w.skipped >= w.r.cfg.Transactions {
			return nil
		}
		if err := w.wait(ctx, end); err != nil {
			return err
		}
	}
}

// wait is Config.Wait's pause after the transaction just run, up to the
// cycle's end at most.
func (w *worker) wait(ctx context.Context, end time.Duration) error {
	if w.r.cfg.Wait == nil {
		return nil
	}
	s := w.sessions[(w.next+len(w.sessions)-1)%len(w.sessions)] // the one just used
	return w.waitFor(ctx, w.r.cfg.Wait(s.Type, s.Rand), end)
}

// startWait is Config.Wait's pause at a cycle's start (type -1).
func (w *worker) startWait(ctx context.Context, end time.Duration) error {
	if w.r.cfg.Wait == nil {
		return nil
	}
	return w.waitFor(ctx, w.r.cfg.Wait(-1, w.sessions[0].Rand), end)
}

// waitFor waits d, up to the cycle's end at most.
func (w *worker) waitFor(ctx context.Context, d, end time.Duration) error {
	if rest := end - w.clock(); d > rest {
		d = rest
	}
	if d <= 0 {
		return nil
	}
	return w.sleep(ctx, d)
}

// sleep waits d unless the context ends first. The timer is the worker's
// own, reset each time: no allocation.
func (w *worker) sleep(ctx context.Context, d time.Duration) error {
	w.timer.Reset(d)
	select {
	case <-w.timer.C:
		return nil
	case <-ctx.Done():
		w.timer.Stop()
		return context.Cause(ctx)
	}
}

// transaction runs one transaction that starts at t0, with its retries, on
// the next session, and counts it. intended < 0 in the closed loop.
func (w *worker) transaction(ctx context.Context, t0, intended, end time.Duration) error {
	s := w.sessions[w.next]
	if w.next++; w.next == len(w.sessions) {
		w.next = 0
	}
	if w.first < 0 {
		w.first = t0
	}
	if intended >= 0 {
		record(w.lag, t0-intended)
		s.Behind = t0 - intended
	}
	s.Attempt = 0
	attemptStart := t0
	for {
		s.stmts, s.Retries = s.stmts[:0], 0
		failed, class, fatal := w.attempt(ctx, s)
		if failed != nil && fatal == nil && w.passed(failed) {
			return nil
		}
		t := w.clock()
		if fatal != nil {
			if failed != nil && t <= end {
				// The trial failed before the run did (its session
				// could not be replaced): it is measured, count it.
				w.fail(s, attemptStart, t, class)
			}
			return fatal
		}
		if failed == nil {
			w.backoff.Reset()
			w.commit(s, t0, t, intended, end)
			return nil
		}
		if t > end {
			return nil // a failure after the end belongs to no cycle
		}
		w.fail(s, attemptStart, t, class)
		if class.Transient() && w.r.resilient {
			if err := w.pause(ctx, t, end, class, failed); err != nil {
				return err
			}
		} else {
			w.backoff.Reset() // the server answered
		}
		if !w.r.cfg.Retry {
			return nil
		}
		w.retries++
		if w.types.retries != nil {
			w.types.retries[w.types.of(s)]++
		}
		s.Attempt++
		attemptStart = w.clock()
	}
}

// passed counts an attempt its Op skipped or ended the thread with
// (ErrSkip, ErrStop): neither a commit nor a failed trial.
func (w *worker) passed(err error) bool {
	switch {
	case errors.Is(err, ErrSkip):
		w.skipped++
		return true
	case errors.Is(err, ErrStop):
		w.stopped = true
		return true
	}
	return false
}

// pause waits, after a transient failure at t, as long as the backoff says
// (never past the cycle's end: the next cycle's first attempt goes on with
// the same fault), or ends the run when the fault has lasted the give-up
// limit. Only the error path comes here.
func (w *worker) pause(ctx context.Context, t, end time.Duration, c dbms.Class, err error) error {
	d, gerr := w.backoff.Fail(w.r.base.Add(t), c, err)
	if gerr != nil {
		return w.fatal(ctx, "server unreachable", gerr)
	}
	if d = min(d, end-t); d <= 0 {
		return nil
	}
	return w.sleep(ctx, d)
}

// fail counts a failed trial of class c on s that started at start and
// failed at t.
func (w *worker) fail(s *Session, start, t time.Duration, c dbms.Class) {
	w.failed++
	w.errors[c]++
	w.retried(s)
	if w.targets.failed != nil {
		i := w.targets.target(s)
		w.targets.failed[i]++
		w.targets.errors[i][c]++
	}
	if w.types.failed != nil {
		i := w.types.of(s)
		w.types.failed[i]++
		w.types.errors[i][c]++
		w.types.statements(i, s)
	}
	w.live.failed.Add(1)
	w.live.errors[c].Add(1)
	if w.raw != nil {
		w.raw.add(w, start, t-start, false)
	}
}

// retried counts the retries s's attempt made inside its Op.
func (w *worker) retried(s *Session) {
	if s.Retries == 0 {
		return
	}
	w.retries += int64(s.Retries)
	if w.types.retries != nil {
		w.types.retries[w.types.of(s)] += int64(s.Retries)
	}
}

// commit counts a transaction on s that started at t0 and committed at t.
func (w *worker) commit(s *Session, t0, t, intended, end time.Duration) {
	if t > end {
		w.late++
		return
	}
	r := t - t0
	w.committed++
	w.live.committed.Add(1)
	w.retried(s)
	w.sumResidence += r
	w.last = t
	record(w.res, r)
	if w.targets.committed != nil {
		i := w.targets.target(s)
		w.targets.committed[i]++
		w.targets.sumResidence[i] += r
		record(w.targets.res[i], r)
	}
	if w.types.committed != nil {
		i := w.types.of(s)
		w.types.committed[i]++
		if w.live.types != nil {
			w.live.types[i].Add(1)
		}
		record(w.types.res[i], r)
		w.types.statements(i, s)
	}
	if w.sec != nil {
		w.sec.record(r)
	}
	if intended >= 0 {
		record(w.resp, t-intended)
	}
	if w.raw != nil {
		w.raw.add(w, t0, r, true)
	}
}
