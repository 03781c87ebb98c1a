package experiment

import (
	"context"
	"fmt"
	"time"
)

// timed runs one statement and returns its wall time in milliseconds with
// the rows it returned. It is the one timed region of every experiment
// that times single statements (wisconsin without the protocol, sizesweep,
// abtest and speedup through intoDest), so that all are timed alike: the
// clock is read just before the call and just after it returns, with
// nothing else between (no count check, no drop, no logging).
//
// ctx is the run's: when it has ended by the time the statement returns
// (Ctrl-C, SIGTERM), the statement may have been cut short, whatever it
// returned, and err says it was interrupted (see interrupted): its time
// and rows are no measurement.
func timed(ctx context.Context, stmt func() (int64, error)) (ms float64, rows int64, err error) {
	start := time.Now()
	rows, err = stmt()
	ms = float64(time.Since(start).Nanoseconds()) / 1e6
	if ctx.Err() != nil {
		err = interrupted(ctx)
	}
	return ms, rows, err
}

// interrupted is the error of work the run's cancellation stopped: it
// names the cause (the signal) and wraps it, so errors.Is(err,
// context.Canceled) holds.
func interrupted(ctx context.Context) error {
	return fmt.Errorf("interrupted: %w", context.Cause(ctx))
}
