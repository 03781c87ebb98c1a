package experiment

import (
	"context"
	"fmt"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// checkLockWait bounds how long the consistency check between cycles waits
// for a database another session holds locked (docs/dsbench.md): long
// enough for a backup or a vacuum's short exclusive phase, short enough
// that an unattended sweep does not hang on a session left open.
const checkLockWait = 30 * time.Second

// errCheckLocked names the fault: the check could not read the database,
// which says nothing about its consistency.
var errCheckLocked = fmt.Errorf("database locked during the consistency check")

// whileLocked runs f until it succeeds, fails for another reason than a
// lock (a retryable class, dbms.Class.Retryable, such as SQLite's
// "database is locked" after its busy timeout or a deadlock; or
// dbms.Timeout, a lock timeout), or wait has passed since the first
// attempt; then the error says how long it waited. waiting, if set,
// is told of the first lock, so that the user knows why the sweep pauses.
func whileLocked(ctx context.Context, wait time.Duration, waiting func(error), f func(context.Context) error) error {
	deadline := time.Now().Add(wait)
	for first := true; ; first = false {
		err := f(ctx)
		if c := dbms.Classify(err); err == nil || (!c.Retryable() && c != dbms.Timeout) {
			return err
		}
		if first && waiting != nil {
			waiting(err)
		}
		if ctx.Err() != nil || !time.Now().Before(deadline) {
			return fmt.Errorf("%w (still locked after %v): %w", errCheckLocked, wait, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w: %w", errCheckLocked, err)
		case <-time.After(min(200*time.Millisecond, time.Until(deadline))):
		}
	}
}
