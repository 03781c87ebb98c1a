package experiment

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/live"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

// liveRun is a run directory with a Live attached, as open leaves it.
func liveRun(t *testing.T, unitStops bool) (*results.Run, *Live, context.Context) {
	t.Helper()
	run, err := results.Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { run.Close() })
	ctx, cancel := context.WithCancelCause(context.Background())
	t.Cleanup(func() { cancel(nil) })
	l := NewLive(progress.New(new(bytes.Buffer)), cancel, unitStops)
	l.attach(run, "test", "sqlite", false)
	return run, l, ctx
}

// waitFor polls cond until it holds, within a bound far above the run's
// one-second reading of its requests.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 30 s", what)
		}
	}
}

// TestStopEndsBeforeTheNextUnit: an experiment with units, asked to stop,
// runs no further unit, and a unit paused by --pause-on-error ends its
// wait; the error says so and is never waited out as a fault.
func TestStopEndsBeforeTheNextUnit(t *testing.T) {
	run, l, ctx := liveRun(t, true)
	h := &results.Header{}
	u := newUnits(Setup{Live: l, Pause: PausePolicy{On: true}}, run, h, nil)
	tries := 0
	paused := make(chan error, 1)
	go func() {
		// A unit that keeps failing with a fault: paused, until the stop.
		paused <- u.do(ctx, "scale 1", func(context.Context, int) error { tries++; return errors.New("connection refused") })
	}()
	if err := live.Ask(run.Dir, live.Request{Stop: true}); err != nil {
		t.Fatal(err)
	}
	if err := <-paused; !IsStopped(err) || !strings.Contains(err.Error(), "dbgauge resume "+run.Dir) {
		t.Fatalf("paused unit ended with %v, want the viewer's stop naming resume", err)
	}
	ran := false
	err := u.do(ctx, "scale 2", func(context.Context, int) error { ran = true; return nil })
	if !IsStopped(err) || ran || tries == 0 || ctx.Err() != nil {
		t.Fatalf("next unit: error %v, ran %v, tries of the first %d, context %v", err, ran, tries, ctx.Err())
	}
	if len(h.Pauses) != 1 || h.Pauses[0].Outcome != results.PauseInterrupted {
		t.Errorf("pauses %+v, want the one interrupted by the stop", h.Pauses)
	}
	l.End(false, err.Error())
	b, _ := os.ReadFile(run.Path(live.File))
	if !bytes.Contains(b, []byte(`"kind":"start"`)) || !bytes.Contains(b, []byte(`"kind":"end"`)) {
		t.Errorf("stream:\n%s", b)
	}
}

// TestStopWithoutUnitsAborts: an experiment that cannot stop between units
// treats a stop as an abort: its context is cancelled at once, saying why.
func TestStopWithoutUnitsAborts(t *testing.T) {
	run, l, ctx := liveRun(t, false)
	defer l.End(false, "")
	if err := live.Ask(run.Dir, live.Request{Stop: true}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "cancellation", func() bool { return ctx.Err() != nil })
	if cause := context.Cause(ctx); !IsStopped(cause) || !strings.Contains(cause.Error(), "cannot stop between units") {
		t.Errorf("cause %v", cause)
	}
}
