package driver

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Config is one load run. The zero values of Nodes, Connections and
// ProgressEvery take the defaults noted; everything else is the caller's.
type Config struct {
	// Nodes is the number of load nodes (0 or 1: local). Nodes > 1 run here
	// as separate groups of threads, each a node in the results.
	Nodes int
	// FirstNode and AllNodes place this Run's nodes in a load spread over
	// several processes (remote agents): it runs nodes FirstNode ..
	// FirstNode+Nodes-1 of AllNodes (0: Nodes), numbered so, with every
	// node the same Threads. Seeds and the open loop's schedule use that
	// global numbering, so the nodes together draw the inputs and the
	// intended starts of one load of AllNodes nodes from the common start.
	FirstNode, AllNodes int
	// Threads per node; 0 means the calling goroutine does the work (seed
	// 001 §2.4), which counts as one worker, thread 0.
	Threads int
	// Connections per thread (0 means 1); each thread round-robins its
	// transactions over them. Ignored with Reconnect (one at a time).
	Connections int

	// Cycles back to back (apart from BetweenCycles), each of demanded
	// duration Duration (D).
	Cycles   int
	Duration time.Duration
	// Transactions > 0 also ends a thread's cycle once the thread has
	// counted that many transactions in it (committed ones, failed trials
	// and those an Op skipped: ErrSkip), as pgbench -t does per client;
	// the cycle ends when every thread has. Duration may then be 0: no
	// time limit, and the cycle's Demanded is the time it took.
	Transactions int64

	// Wait, when set, is how long a thread of the closed loop waits after
	// a transaction of type typ (its Session.Type) before it starts the
	// next: a terminal's keying and think time, drawn from the thread's
	// generator. At each cycle's start a thread waits Wait(-1, r) first,
	// so that terminals do not all start at once as no steady state has
	// them. The wait is in no residence time, ends early at the cycle's
	// end, and is cut short by the run's end.
	Wait func(typ int, r *rand.Rand) time.Duration

	// Retry repeats a failed transaction with the same inputs until it
	// commits or the cycle ends; its residence time runs from the start of
	// the first attempt. Every failed attempt is a failed trial.
	Retry bool
	// Reconnect opens a new session (Open and Setup) for every attempt and
	// closes it after; the open and close are inside the residence time.
	Reconnect bool
	// With Retry or Reconnect, a transient fault (connection lost or
	// refused, server shutting down, starting or full) is a failed trial
	// and the thread waits before its next attempt: capped exponential
	// backoff, jittered from Seed, never longer than BackoffCap (0:
	// DefaultBackoffCap). A fault that lasts GiveUp (0: DefaultGiveUp)
	// ends the run with a *GiveUpError. Without either, a lost session is
	// replaced at once and a failure to do so ends the run.
	BackoffCap, GiveUp time.Duration

	// Rate > 0 is the open loop: Rate transactions per second over all
	// workers of all nodes, each with an intended start; 0 is the closed
	// loop (every worker starts its next transaction when the last ends).
	Rate float64
	// Poisson draws the open loop's intended starts as a Poisson process
	// (exponential gaps, pgbench -R); by default they are evenly spaced, so
	// a cycle holds exactly ceil(Rate x D) intended starts.
	Poisson bool

	// Open opens one client session for s (s.Node, s.Thread and s.Conn say
	// whose). Errors at the start are returned by Run at once; errors when
	// reconnecting during the run end the run, unless Retry or Reconnect
	// waits out transient ones (BackoffCap).
	Open func(ctx context.Context, s *Session) (dbms.Engine, error)
	// Targets > 1 is a load spread over that many servers (a replicated
	// cluster's nodes): Open sets s.Target to the one (0-based) the
	// session went to, and every trial is also counted for it
	// (ThreadResult.Targets).
	Targets int
	// Setup, if set, runs on every new session (prepare statements, SET ...).
	Setup func(ctx context.Context, s *Session) error
	// NewOp returns the operation of one thread; it is called once per
	// thread before any load runs.
	NewOp func(node, thread int) Op

	// Types names the workload's transaction types, in the order of
	// Session.Type (nil or one name: one type). With several, or with any
	// Statements, every cycle also counts per type (CycleResult.Types);
	// with one name and no statements the one type is the totals.
	Types []string
	// Statements names, per type, the statements an Op times with
	// Session.Statement (nil: none timed).
	Statements [][]string

	// Seed seeds every thread's Session.Rand and the Poisson arrivals.
	Seed uint64

	// RawTimes, if set, receives one text line per trial counted in a
	// cycle: committed transactions and failed trials (see rawtimes.go for
	// the format). Lines are written by a goroutine of their own.
	RawTimes io.Writer

	// CycleStart, if set, is called before every cycle and returns when
	// the cycle is to start (a time it then waits for; a past time starts
	// it at once). Remote agents start their cycles at the master's
	// announced time with it. An error ends the run before the cycle.
	CycleStart func(ctx context.Context, cycle int) (time.Time, error)

	// BetweenCycles, if set, runs after every cycle while no load runs
	// (consistency checks, cleanup); its time is part of no cycle. An error
	// from it ends the run.
	BetweenCycles func(ctx context.Context, cycle int, res CycleResult) error

	// Progress, if set, is called every ProgressEvery (default 1 s) during
	// a cycle, always from the same goroutine (not the caller's).
	Progress      func(p Progress)
	ProgressEvery time.Duration
}

// workers is the number of threads per node that actually run.
func (c *Config) workers() int { return max(c.Threads, 1) }

func (c *Config) nodes() int { return max(c.Nodes, 1) }

// allNodes is the number of nodes of the whole load, this Run's and others'.
func (c *Config) allNodes() int { return max(c.AllNodes, c.FirstNode+c.nodes()) }

// connections is the number of sessions each thread holds.
func (c *Config) connections() int {
	if c.Reconnect {
		return 1
	}
	return max(c.Connections, 1)
}

// maxStarts bounds a cycle's intended starts: the schedule counts them
// exactly up to 2^53 (float64's whole numbers).
const maxStarts = 1 << 53

// check names the first bad field.
func (c *Config) check() error {
	switch {
	case c.Nodes < 0:
		return fmt.Errorf("driver: Nodes = %d, want >= 0", c.Nodes)
	case c.Threads < 0:
		return fmt.Errorf("driver: Threads = %d, want >= 0", c.Threads)
	case c.FirstNode < 0:
		return fmt.Errorf("driver: FirstNode = %d, want >= 0", c.FirstNode)
	case c.AllNodes != 0 && c.FirstNode+c.nodes() > c.AllNodes:
		return fmt.Errorf("driver: nodes %d..%d of AllNodes = %d", c.FirstNode, c.FirstNode+c.nodes()-1, c.AllNodes)
	case c.Connections < 0:
		return fmt.Errorf("driver: Connections = %d, want >= 0", c.Connections)
	case c.Cycles < 1:
		return fmt.Errorf("driver: Cycles = %d, want >= 1", c.Cycles)
	case c.Transactions < 0:
		return fmt.Errorf("driver: Transactions = %d, want >= 0", c.Transactions)
	case c.Duration < 0 || c.Duration == 0 && c.Transactions == 0:
		return fmt.Errorf("driver: Duration = %v, want > 0 (or a count of Transactions)", c.Duration)
	case !(c.Rate >= 0) || math.IsInf(c.Rate, 1):
		return fmt.Errorf("driver: Rate = %v, want >= 0 (0 is the closed loop)", c.Rate)
	case c.Rate*c.Duration.Seconds() > maxStarts:
		return fmt.Errorf("driver: Rate x Duration = %g intended starts per cycle, want at most 2^53", c.Rate*c.Duration.Seconds())
	case c.Poisson && c.Rate == 0:
		return fmt.Errorf("driver: Poisson needs a Rate")
	case c.Wait != nil && c.Rate > 0:
		return fmt.Errorf("driver: Wait is the closed loop's; the open loop paces by Rate")
	case c.Open == nil:
		return fmt.Errorf("driver: Open is nil")
	case c.NewOp == nil:
		return fmt.Errorf("driver: NewOp is nil")
	case c.BackoffCap < 0:
		return fmt.Errorf("driver: BackoffCap = %v, want >= 0", c.BackoffCap)
	case c.GiveUp < 0:
		return fmt.Errorf("driver: GiveUp = %v, want >= 0", c.GiveUp)
	case len(c.Types) > 0 && len(c.Statements) > len(c.Types):
		return fmt.Errorf("driver: Statements of %d types, Types names %d", len(c.Statements), len(c.Types))
	case c.ProgressEvery < 0:
		return fmt.Errorf("driver: ProgressEvery = %v, want >= 0", c.ProgressEvery)
	}
	return c.checkNames()
}

// checkNames refuses a type or a type's statement named twice: figures
// merge by name across threads, nodes and cycles, so two of one name
// would add up as one.
func (c *Config) checkNames() error {
	if d, ok := duplicate(c.Types); ok {
		return fmt.Errorf("driver: Types names %q twice", d)
	}
	for i, st := range c.Statements {
		if d, ok := duplicate(st); ok {
			return fmt.Errorf("driver: Statements of type %q name %q twice", c.typeName(i), d)
		}
	}
	return nil
}

// duplicate is the first name that names twice, if any.
func duplicate(names []string) (string, bool) {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			return n, true
		}
		seen[n] = true
	}
	return "", false
}
