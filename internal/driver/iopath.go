package driver

import (
	"context"
	"runtime"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/blockio"
)

// The client I/O path. A round trip costs the client what its thread does
// between the request and the reply; dbgauge must spend no more there than
// pgbench's or sysbench's C threads, or its rate is partly its own. Four
// things make a worker as cheap as such a thread (measured in bench/, the
// reasons in docs/client-cost.md):
//
//   - The server adapters read and write on blocking sockets (package
//     dbms/blockio): a thread waits for the reply in the kernel instead of
//     parking its goroutine on the network poller and being handed back
//     through the scheduler on every round trip.
//   - Each worker runs on a goroutine locked to its OS thread for the
//     cycle, and the run has more Ps than workers (ensurePs): a thread that
//     returns from a blocking read finds its own P idle and goes on without
//     a hand-off. Only for blocking sessions: an embedded driver that starts
//     a goroutine per statement (duckdb-go) would pay a hand-off between
//     threads for each one on a locked thread.
//   - Calls get a context without cancellation (opContext), so no library
//     arms a watch of the context per call (pgx's AfterFunc, database/sql's
//     and go-sqlite3's per-query goroutines, MariaDB's watcher hand-off).
//     The run's end reaches a thread blocked in the kernel through
//     dbms.Aborter instead: one watch per session, armed at connect.
//   - A worker passes through the scheduler every yieldEvery.

// blocks reports whether e's calls block in the kernel (and are aborted
// rather than cancelled).
func blocks(e dbms.Engine) bool {
	_, ok := e.(dbms.Aborter)
	// EXPERIMENT (issue 31): with DBGAUGE_EXPERIMENT_NETPOLL the sockets
	// are on Go's poller and the sessions plain goroutines, not locked.
	return ok && blockio.ExperimentPs() == 0
}

// abortOnEnd arms e's abort for when ctx ends; nil when e cannot be
// aborted. The returned function disarms it.
func abortOnEnd(ctx context.Context, e dbms.Engine) (stop func() bool) {
	if a, ok := e.(dbms.Aborter); ok {
		return context.AfterFunc(ctx, a.Abort)
	}
	return nil
}

// opContext is the context the Ops and rollbacks of s's session get: the
// run's values without its cancellation when the engine can be aborted
// (watchSession arranges that), the run's context otherwise (embedded
// engines check it between steps, and the worker checks it between
// transactions).
func (r *runner) opContext(s *Session) context.Context {
	if s.abort != nil {
		return r.quiet
	}
	return r.ctx
}

// watchSession arms the abort of s's engine for when the run's context
// ends (Ctrl-C, SIGTERM, a fatal error of another worker).
func (r *runner) watchSession(s *Session) { s.abort = abortOnEnd(r.ctx, s.Engine) }

// CallContext is the I/O path for load that is not made of cycles (the
// multiuser experiment's scripts): the context to pass e's calls, and the
// function that disarms the abort when the client is done. As for the
// driver's sessions, an engine that can be aborted gets ctx without its
// cancellation and is aborted when ctx ends; callers check ctx themselves
// after a failed call to tell an interruption from a failure.
func CallContext(ctx context.Context, e dbms.Engine) (context.Context, func()) {
	stop := abortOnEnd(ctx, e)
	if stop == nil {
		return ctx, func() {}
	}
	return context.WithoutCancel(ctx), func() { stop() }
}

// EnsurePs and OnThread are the other two parts of the I/O path, for the
// same callers: Ps enough for n clients blocked in the kernel, and a
// client's work f on e run on its goroutine locked to its thread when e
// blocks in the kernel.
func EnsurePs(n int) (restore func())  { return ensurePs(n) }
func OnThread(e dbms.Engine, f func()) { onThread(blocks(e), f) }

// unwatch disarms watchSession's abort before the engine is closed.
func (s *Session) unwatch() {
	if s.abort != nil {
		s.abort()
		s.abort = nil
	}
}

// ensurePs gives the process at least one P per worker and two spare (the
// coordinator's progress and the raw-times writer), so that workers blocked
// in the kernel never leave a returning thread without a P: with fewer, the
// runtime hands a blocked thread's P to another and the returning thread
// must wait to be scheduled. It returns what restores the default.
func ensurePs(workers int) (restore func()) {
	if p := blockio.ExperimentPs(); p > 0 {
		// EXPERIMENT (issue 31): DBGAUGE_EXPERIMENT_NETPOLL's Ps, whatever
		// the number of workers.
		runtime.GOMAXPROCS(p)
		return runtime.SetDefaultGOMAXPROCS
	}
	if runtime.GOMAXPROCS(0) >= workers+2 {
		return func() {}
	}
	runtime.GOMAXPROCS(workers + 2)
	return runtime.SetDefaultGOMAXPROCS
}

// yieldEvery is how often a worker passes through the scheduler of its own
// accord. A worker that only ever blocks in the kernel never does, so the
// runtime's monitor takes it for a goroutine running too long: every 10 ms
// it preempts it (a signal) and takes its P, and for each such retake it
// polls at its shortest interval (20 us) for the next millisecond or so.
// Measured on PostgreSQL select-only at 2 clients: about 4,000 wake-ups of
// the monitor per second, and 5-10% of the rate; yielding every 5 ms takes
// the wake-ups to a twentieth.
const yieldEvery = 5 * time.Millisecond

// yieldThread passes through the scheduler. A goroutine locked to its
// thread cannot do that cheaply: Gosched hands its P to another thread,
// which finds the goroutine, hands the P back and wakes the locked thread
// (two wake-ups between threads, a fifth of all the process's wake-ups at 8
// clients). Unlocked for the moment of the yield, the goroutine is picked
// up again by its own thread, which has nothing else to run; it is then
// locked again, to whichever thread runs it. Measured on PostgreSQL
// select-only against the locked Gosched, 4 interleaved pairs: at 8
// clients 47,900-58,400 tps against 39,000-48,000, at 2 clients 69,400-
// 72,400 against 67,100-68,500. The caller must hold exactly one
// LockOSThread (onThread's); on an unlocked goroutine it is a Gosched.
func yieldThread(locked bool) {
	if !locked {
		runtime.Gosched()
		return
	}
	runtime.UnlockOSThread()
	runtime.Gosched()
	runtime.LockOSThread()
}

// onThread runs f, a client's work, on its goroutine locked to its OS
// thread when the client's calls block in the kernel, as it is otherwise.
func onThread(blocking bool, f func()) {
	if blocking {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	f()
}
