package driver

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// TestBackoff: the n-th wait in a row lies in the upper half of
// min(10 ms x 2^(n-1), cap), the waits are the same from the same seed, a
// success starts over, and a fault that has lasted the give-up limit
// returns a *GiveUpError of the fault's class (a failed run, not bad
// input). Times are given, not measured.
func TestBackoff(t *testing.T) {
	const capD, giveUp = 300 * time.Millisecond, 5 * time.Second
	lost := errors.New("test: connection refused")
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := NewBackoff(capD, giveUp, rand.New(rand.NewPCG(1, 2)))
	same := NewBackoff(capD, giveUp, rand.New(rand.NewPCG(1, 2)))
	// Steps 10, 20, 40, 80, 160 ms, then the cap.
	steps := []time.Duration{10, 20, 40, 80, 160, 300, 300}
	for i, step := range steps {
		step *= time.Millisecond
		if i == len(steps)-1 {
			step = capD
		}
		d, err := b.Fail(at, dbms.Refused, lost)
		d2, _ := same.Fail(at, dbms.Refused, lost)
		if err != nil {
			t.Fatalf("failure %d: %v", i+1, err)
		}
		if d < step/2 || d > step {
			t.Errorf("failure %d: wait %v, want within [%v, %v]", i+1, d, step/2, step)
		}
		if d != d2 {
			t.Errorf("failure %d: waits %v and %v from the same seed", i+1, d, d2)
		}
		at = at.Add(d)
	}
	b.Reset()
	if d, _ := b.Fail(at, dbms.Refused, lost); d > 10*time.Millisecond {
		t.Errorf("after a success the first wait is %v, want at most 10ms", d)
	}
	_, err := b.Fail(at.Add(giveUp), dbms.ServerUnavailable, lost)
	var g *GiveUpError
	if !errors.As(err, &g) || g.Down != giveUp || g.Attempts != 2 || dbms.Classify(err) != dbms.ServerUnavailable || !errors.Is(err, lost) {
		t.Errorf("after %v down: %v (class %v), want a GiveUpError of class server_unavailable wrapping the fault", giveUp, err, dbms.Classify(err))
	}
	// The cap holds for any number of failures in a row (no overflow).
	for range 100 {
		if d, err := b.Fail(at, dbms.Refused, lost); err == nil && d > capD {
			t.Fatalf("wait %v above the cap %v", d, capD)
		}
	}
}
