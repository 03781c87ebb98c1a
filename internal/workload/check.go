package workload

import (
	"context"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Check is one scale's consistency check, called after every cycle while
// no load runs, on the run's control session. The caller retries Read and
// Cleanup after a fault of the server (on a new session), so neither may
// change what the check carries from one cycle to the next: only Verify
// does, once per cycle.
type Check interface {
	// Read reads what the check compares.
	Read(ctx context.Context, e dbms.Engine) error
	// Verify compares what Read read with the transactions the clients
	// counted since the previous cycle's check, and returns the
	// violations (none: consistent).
	Verify(c Commits) []string
	// Cleanup readies the database for the next cycle (removes what the
	// cycle added that would grow without bound).
	Cleanup(ctx context.Context, e dbms.Engine) error
}

// Commits are what the clients counted since the previous check.
type Commits struct {
	// Committed is the transactions that committed (also just after the
	// cycle's end); ByType splits them by type (Workload.Types' order).
	Committed int64
	ByType    []int64
	// InDoubt is the commits lost with their connection
	// (ErrCommitInDoubt): each may have committed or not.
	InDoubt int64
	// Unknown: a load node was lost during the scale, so commits happened
	// that nobody counted and may still land; only what holds whatever
	// they were can be checked.
	Unknown bool
	// Elapsed is the cycle's measured length (its first transaction's
	// start to its last one's end over every client), for figures per
	// unit of time; 0 when unknown.
	Elapsed time.Duration
	// Counts are a Counter's counts, summed over every client, in the
	// order of its CountNames (nil for a workload that counts nothing).
	Counts []int64
}

// LoadChecker is a Check with conditions that hold only right after the
// population (an order-entry database's orders without a delivery, which
// the first delivery changes): CheckLoaded runs once per scale, after the
// population and before the first cycle, on the control session, and
// returns the violations.
type LoadChecker interface {
	CheckLoaded(ctx context.Context, e dbms.Engine) ([]string, error)
}

// FinalChecker is a Check with conditions too costly to read after every
// cycle (sums over every order line): CheckFinal runs once per scale,
// after the last cycle's Verify, and returns the violations.
type FinalChecker interface {
	CheckFinal(ctx context.Context, e dbms.Engine) ([]string, error)
}
