package experiment

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

// PausePolicy is --pause-on-error, for runs left unattended: a unit that
// fails with a fault (a server gone, a lost connection; not bad input,
// not Ctrl-C) is tried again after a wait that doubles from
// PauseFirstWait up to PauseMaxWait, until it succeeds, until Ctrl-C or
// SIGTERM, or until Limit has passed since the unit first failed.
type PausePolicy struct {
	On    bool
	Limit time.Duration
}

// The backoff of --pause-on-error: 1 s, 2 s, 4 s ... at most a minute
// between tries, so that a server back after a long outage is found within
// a minute, and for at most DefaultPauseLimit unless --pause-limit says.
const (
	PauseFirstWait    = time.Second
	PauseMaxWait      = time.Minute
	DefaultPauseLimit = 6 * time.Hour
)

// units runs an experiment's units of work (a scale, a Q@C): it skips
// those a resumed run completed, journals each one that completes (the
// UnitDone entry that `dbgauge resume` reads), and applies the pause
// policy. It writes the run's resumptions and pauses into the results'
// header.
type units struct {
	live  *Live
	run   *results.Run
	h     *results.Header
	done  map[string]bool
	pause PausePolicy
	pr    *progress.Printer
}

// newUnits starts the units of a run; a resumed run's header takes back
// the earlier part's resumptions, pauses and warnings.
func newUnits(s Setup, run *results.Run, h *results.Header, pr *progress.Printer) *units {
	u := &units{live: s.Live, run: run, h: h, done: map[string]bool{}, pause: s.Pause, pr: pr}
	if u.pause.Limit <= 0 {
		u.pause.Limit = DefaultPauseLimit
	}
	if p := s.Resume; p != nil {
		u.done = p.Done
		h.Resumed = append(h.Resumed, p.Resumed...)
		h.Pauses = append(h.Pauses, p.Pauses...)
		h.Warnings = append(append([]string(nil), p.Warnings...), h.Warnings...)
		names := slices.Sorted(maps.Keys(p.Done))
		if len(names) > 6 {
			names = append(names[:5], fmt.Sprintf("... (%d in all)", len(names)))
		}
		if len(names) == 0 {
			names = []string{"nothing"}
		}
		pr.Line("resuming %s: complete before it stopped: %s", run.Dir, strings.Join(names, ", "))
	}
	return u
}

// completed tells whether a resumed run completed unit before it stopped.
func (u *units) completed(unit string) bool { return u.done[unit] }

// complete journals that unit completed: every measurement of it is in
// the journal already. A unit made of smaller ones (an A/B query of its
// pairs) completes so, without an attempt of its own.
func (u *units) complete(unit string) {
	u.done[unit] = true
	u.run.Journal().Append(results.UnitDone{Unit: unit})
}

// do runs one unit through attempt (try counts from 0) and journals its
// completion. A failure ends the unit, unless the pause policy is on and
// the failure is a fault: then the run waits and tries again. The error
// is the unit's last failure. A viewer's stop ends the run before the
// next unit, and is never waited out.
func (u *units) do(ctx context.Context, unit string, attempt func(ctx context.Context, try int) error) error {
	if u.live.stopRequested() {
		return u.live.stopErr()
	}
	var p *results.Pause
	wait := PauseFirstWait
	for try := 0; ; try++ {
		err := attempt(ctx, try)
		if err == nil {
			if p != nil {
				u.endPause(p, results.PauseResolved)
				u.pr.Line("%s succeeded after %d failed attempts: the pause ends", unit, p.Attempts)
			}
			u.complete(unit)
			return nil
		}
		if !u.pause.On || ctx.Err() != nil || IsStopped(err) || (p == nil && !isFault(err)) {
			if p != nil {
				u.endPause(p, results.PauseInterrupted)
				return asFault(err)
			}
			return err
		}
		if p == nil {
			p = &results.Pause{Unit: unit, Fault: dbms.RedactPasswords(err.Error()), Start: time.Now().UTC()}
		}
		p.Attempts++
		if time.Since(p.Start)+wait > u.pause.Limit {
			u.endPause(p, results.PauseLimit)
			return asFault(fmt.Errorf("%w (paused since %s, %d attempts failed: --pause-limit %s reached)", err, p.Start.Format(time.RFC3339), p.Attempts, u.pause.Limit))
		}
		u.pr.Line("paused: %s failed (%s); trying again in %s (attempt %d; --pause-limit %s; Ctrl-C ends the run)",
			unit, dbms.RedactPasswords(err.Error()), wait, p.Attempts+1, u.pause.Limit)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			u.endPause(p, results.PauseInterrupted)
			return asFault(fmt.Errorf("%w while paused after %s failed: %w", interrupted(ctx), unit, err))
		case <-u.live.stopC():
			t.Stop()
			u.endPause(p, results.PauseInterrupted)
			return fmt.Errorf("%w (while paused after %s failed: %v)", u.live.stopErr(), unit, err)
		case <-t.C:
		}
		wait = min(2*wait, PauseMaxWait)
	}
}

// endPause records a pause that ended: in the header and the journal.
func (u *units) endPause(p *results.Pause, outcome string) {
	p.End, p.Outcome = time.Now().UTC(), outcome
	u.h.Pauses = append(u.h.Pauses, *p)
	u.run.Journal().Append(*p)
}

// isFault tells whether a unit's failure is a fault worth waiting out: not
// the user's mistake, nor SQL the engine refuses or data that broke the
// benchmark's assumptions (the same again after any wait), except that a
// server that cannot be reached any more (refused, reset) went away
// during the run, which a wait may mend. Once a unit is paused every
// failure of it is taken as the same fault.
func isFault(err error) bool {
	switch dbms.Classify(err) {
	case dbms.BadInput, dbms.Invalid, dbms.Syntax, dbms.Unsupported:
		return dbms.IsNetwork(err)
	}
	return true
}

// asFault makes the error of a run that paused a failure during a run
// (exit 1), even when its last cause was classed as bad input (a server
// still unreachable is "unreachable server" to the engine adapter).
func asFault(err error) error { return dbms.Wrap(dbms.Other, err) }
