package experiment

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
)

// journalErr adds the loss of run's journal, if it lost anything, to
// runErr: a run whose journal did not take every measurement failed (the
// command exits 1), even when everything else went well, and its error
// names the journal file, the failure (a full disk) and the entries not
// written, by kind. What the journal holds is whole and kept.
func journalErr(run *results.Run, runErr error) error {
	j := run.Journal()
	j.Sync()
	return andErr(runErr, j.Err())
}

// andErr is err, and then also next when it is not nil: a run's outputs
// that could not be written after it failed (a full disk: results.json,
// the tables) are named on stderr beside the failure, never dropped.
func andErr(err, next error) error {
	switch {
	case next == nil:
		return err
	case err == nil:
		return next
	}
	return fmt.Errorf("%w; and %w", err, next)
}

// namedStop makes the error of a run that ctx's cancellation stopped name
// the cause (Ctrl-C's "interrupt signal received"), which an engine's
// "context canceled" does not.
func namedStop(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	cause := context.Cause(ctx)
	if strings.Contains(err.Error(), cause.Error()) {
		return err
	}
	return fmt.Errorf("%w: %w", cause, err)
}

// runOutcome settles how a run ended, once it has measured and before its
// results are written: complete when neither the run nor its journal
// failed, otherwise not, with the error (journalErr's) in errText; a run
// that ctx's cancellation stopped says what stopped it (the signal).
// Every experiment ends through it.
func runOutcome(ctx context.Context, run *results.Run, runErr error, complete *bool, errText *string) error {
	if runErr == nil && ctx.Err() != nil {
		// Stopped, though nothing said so: the last measurement may have
		// been cut short, so the run is not whole.
		runErr = interrupted(ctx)
	}
	runErr = andErr(journalErr(run, namedStop(ctx, runErr)), run.DiskFull())
	*complete, *errText = runErr == nil, ""
	if runErr != nil {
		*errText = runErr.Error()
	}
	return runErr
}
