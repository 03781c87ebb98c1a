package driver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// The backoff's defaults: a wait never longer than DefaultBackoffCap, and a
// fault that lasts DefaultGiveUp ends the run. A server restarted by an
// operator is back within seconds; a minute is long enough for a crash
// recovery of a small database and short enough not to leave a run spinning
// against a server that is gone for good.
const (
	DefaultBackoffCap = 2 * time.Second
	DefaultGiveUp     = 60 * time.Second
	// backoffBase is the first wait: a session lost to a restart is most
	// often back within a few of these.
	backoffBase = 10 * time.Millisecond
)

// Backoff paces the attempts after transient faults (dbms.Class.Transient):
// capped exponential waits with jitter, base x 2^(n-1) for the n-th failure
// in a row, at most Cap, each drawn uniformly from its upper half so that
// the threads of a run do not reconnect in lockstep. A fault that has
// lasted GiveUp since the first failure in a row is no longer waited for.
//
// One Backoff belongs to one goroutine. It allocates nothing; only the
// error path calls it.
type Backoff struct {
	cap, giveUp time.Duration
	rnd         *rand.Rand
	failures    int       // in a row, since the last success
	since       time.Time // of the first of them
	first       dbms.Class
}

// NewBackoff returns a Backoff with the given cap and give-up limit (0
// takes the defaults), jittered from rnd (a seeded generator: the waits
// are the same run after run).
func NewBackoff(cap, giveUp time.Duration, rnd *rand.Rand) Backoff {
	if cap <= 0 {
		cap = DefaultBackoffCap
	}
	if giveUp <= 0 {
		giveUp = DefaultGiveUp
	}
	return Backoff{cap: cap, giveUp: giveUp, rnd: rnd}
}

// Reset records a success: the next failure starts a new fault.
func (b *Backoff) Reset() { b.failures = 0 }

// Down reports whether a fault is in progress (failures since the last
// success).
func (b *Backoff) Down() bool { return b.failures > 0 }

// Fail records a transient failure err of class c at now and returns how
// long to wait before the next attempt, or a *GiveUpError once the fault
// has lasted the give-up limit.
func (b *Backoff) Fail(now time.Time, c dbms.Class, err error) (time.Duration, error) {
	if b.failures == 0 {
		b.since, b.first = now, c
	}
	b.failures++
	if down := now.Sub(b.since); down >= b.giveUp {
		return 0, &GiveUpError{Down: down, Attempts: b.failures, Limit: b.giveUp, Class: c, Err: err}
	}
	d := b.cap
	if n := b.failures - 1; n < 30 && backoffBase<<n < b.cap {
		d = backoffBase << n
	}
	half := d / 2
	return half + time.Duration(b.rnd.Int64N(int64(d-half)+1)), nil
}

// Wait is Fail followed by the wait, for callers outside the load loop (a
// control session between cycles): it returns the give-up error, or the
// context's cause when it ends first.
func (b *Backoff) Wait(ctx context.Context, c dbms.Class, err error) error {
	d, gerr := b.Fail(time.Now(), c, err)
	if gerr != nil {
		return gerr
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// GiveUpError ends a run whose server stayed unreachable past the give-up
// limit. It keeps the last failure's class, so a lost server is a failed
// run (exit 1), never the user's bad input.
type GiveUpError struct {
	Down     time.Duration // since the first failure in a row
	Attempts int
	Limit    time.Duration
	Class    dbms.Class
	Err      error // the last failure
}

func (e *GiveUpError) Error() string {
	return fmt.Sprintf("gave up after %s of failures (%d attempts, limit %s): %s: %v",
		e.Down.Round(time.Millisecond), e.Attempts, e.Limit, e.Class, e.Err)
}

func (e *GiveUpError) Unwrap() error { return dbms.Wrap(e.Class, e.Err) }
