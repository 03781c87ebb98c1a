// Package driver runs load: nodes x threads x connections firing
// transactions in cycles of a demanded duration, closed loop or at an open-loop
// rate, with retries and reconnects, and records every residence time into
// per-worker HDR histograms (seed 001 §2.3-2.6, docs/dsbench.md §3).
//
// It never knows which benchmark runs: a workload hands it an Op per thread
// and a Setup per session; the driver owns the loop, the clock, pacing,
// cancellation and the classification of errors.
//
// The hot path (one transaction) takes no lock shared with other workers and
// allocates nothing: each worker counts into its own fields and records into
// its own histograms; the workers meet only at the end of a cycle, where the
// coordinator merges their histograms while no load runs. Progress reads
// per-worker atomic counters. Memory stays flat whatever the number of
// transactions.
package driver

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Op is one attempt of one transaction on a session. It begins and commits
// the transaction itself and returns nil when it committed. On an error the
// driver rolls the session back (through Session.Tx), counts a failed trial
// and, with Config.Retry, calls the Op again on the same session with
// Session.Attempt increased, so the Op can reuse the inputs it kept.
//
// An Op is called by one goroutine only (its thread's); it may keep state in
// its closure. It should not allocate per call where it can avoid it.
type Op func(ctx context.Context, s *Session) error

// ErrSkip and ErrStop are what an Op returns to say it ran no
// transaction: ErrSkip skipped one (pgbench -R with -L skips a
// transaction already later than the latency limit when it could start),
// counted toward Config.Transactions but neither committed nor failed;
// ErrStop ends its thread's cycle (a pgbench client that aborted on an
// error the run goes on without). Neither is rolled back or retried.
var (
	ErrSkip = errors.New("driver: transaction skipped")
	ErrStop = errors.New("driver: thread stopped")
)

// Session is one connection slot of a thread: what an Op works on. The driver
// owns it; the Engine in it is replaced when the connection is lost (and per
// transaction with Config.Reconnect), the rest stays.
type Session struct {
	Engine dbms.Engine
	// Tx is Engine as a dbms.Transactor; nil when the adapter lacks it (then
	// the driver cannot roll back a failed trial: the Op must leave no
	// transaction open when it fails).
	Tx dbms.Transactor
	// Node, Thread and Conn are indices from 0 (Node is 0 when local).
	Node, Thread, Conn int
	// Target is the cluster node the session went to (Config.Targets),
	// set by Config.Open.
	Target int
	// Rand is the thread's generator (shared by its sessions), seeded from
	// Config.Seed, Node and Thread: inputs are the same run after run.
	Rand *rand.Rand
	// Attempt is 0 for the first attempt of a transaction and n for its n-th
	// retry; an Op draws new inputs only when it is 0.
	Attempt int
	// Inputs is a free slot for the Op (for example a pointer to its inputs,
	// allocated once); the driver never touches it.
	Inputs any
	// Type is the index of the transaction type the Op's last attempt
	// ran, among its workload's types (0 for a workload of one type); the
	// Op sets it. The driver counts the attempt for that type when it ends
	// (Config.Types, Totals.Types).
	Type int
	// Behind is how late the attempt's transaction started after its
	// intended start in the open loop (0 in the closed loop): an Op that
	// times from the intended start, as pgbench -R does, adds it.
	Behind time.Duration
	// Retries are the retries the Op made itself within this attempt (a
	// workload that retries as pgbench does, its variables restored, and
	// counts no failed trial for them); the driver zeroes it before each
	// attempt and counts it with the attempt, for its type, when the
	// attempt is counted in a cycle.
	Retries int

	// timed: the run times statements (Config.Statements), so Statement
	// keeps the attempt's times in stmts until the attempt is counted.
	timed bool
	stmts []stmtTime

	// lost is set when the session was given up after a fault: opening
	// the next one is a reconnect (ThreadResult.Reconnects).
	lost bool

	// abort stops the watch that aborts Engine when the run ends (iopath.go);
	// nil when the engine cannot be aborted.
	abort func() bool
}

// threadSeed is the second word of a thread's PCG seed: threads of all nodes
// get distinct streams from one Config.Seed.
func threadSeed(node, thread int) uint64 { return uint64(node)<<32 | uint64(uint32(thread)) }

// The streams of a thread's generators: the Op's inputs, open-loop
// arrivals and the backoff's jitter each draw from their own, so neither
// pacing nor faults ever shift the inputs.
const (
	streamInputs uint64 = iota
	streamArrivals
	streamBackoff
)

// newRand returns the generator of (node, thread) for stream.
func newRand(seed uint64, node, thread int, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed^(stream*0x9e3779b97f4a7c15), threadSeed(node, thread)))
}
