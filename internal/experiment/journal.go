package experiment

import (
	"fmt"

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
	jerr := j.Err()
	switch {
	case jerr == nil:
		return runErr
	case runErr == nil:
		return jerr
	}
	return fmt.Errorf("%w; and %w", runErr, jerr)
}

// runOutcome settles how a run ended, once it has measured and before its
// results are written: complete when neither the run nor its journal
// failed, otherwise not, with the error (journalErr's) in errText. Every
// experiment ends through it.
func runOutcome(run *results.Run, runErr error, complete *bool, errText *string) error {
	runErr = journalErr(run, runErr)
	*complete, *errText = runErr == nil, ""
	if runErr != nil {
		*errText = runErr.Error()
	}
	return runErr
}
