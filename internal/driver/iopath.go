package driver

import (
	"context"
	"runtime"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// The client I/O path. A round trip costs the client what its thread does
// between the request and the reply; dbgauge must spend no more there than
// pgbench's or sysbench's C threads, or its rate is partly its own. Three
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
//     a hand-off.
//   - Calls get a context without cancellation (opContext), so no library
//     arms a watch of the context per call (pgx's AfterFunc, database/sql's
//     and go-sqlite3's per-query goroutines, MariaDB's watcher hand-off).
//     The run's end reaches a thread blocked in the kernel through
//     dbms.Aborter instead: one watch per session, armed at connect.

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
func (r *runner) watchSession(s *Session) {
	if a, ok := s.Engine.(dbms.Aborter); ok {
		s.abort = context.AfterFunc(r.ctx, a.Abort)
	}
}

// unwatchSession disarms it before the engine is closed.
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
	if runtime.GOMAXPROCS(0) >= workers+2 {
		return func() {}
	}
	runtime.GOMAXPROCS(workers + 2)
	return runtime.SetDefaultGOMAXPROCS
}

// lockedCycle runs f on the calling goroutine locked to its OS thread.
func lockedCycle(f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	f()
}
