package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestPauseOnError: with --pause-on-error, a private PostgreSQL stopped
// during a sweep's first scale does not end the run: dbgauge says it
// pauses, tries the scale again with a growing wait, and once the server
// is started again measures the scale from its population and goes on.
// The run completes with every scale consistent; results.json and the
// page show the pause, its fault and that it was resolved. A second
// sweep, paused the same way, cannot be resumed while it waits (it still
// runs), and is ended by SIGINT: exit 1, the pause recorded as
// interrupted.
func TestPauseOnError(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	args := func(out string) []string {
		return []string{"dsbench", "--db", inst.URL, "--scales", "1,2", "--cycles", "2", "--duration", "1s",
			"--threads", "2", "--pause-on-error", "--out", out}
	}

	t.Run("resolved", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "run")
		stopped, pauses := false, 0
		lines, _, code := runWatching(t, args(dir), func(line string, p *os.Process) {
			switch {
			case !stopped && strings.Contains(line, "scale 1") && strings.Contains(line, "cycle  1/2"):
				stopped = true
				if err := inst.Stop(); err != nil {
					t.Errorf("stop PostgreSQL: %v", err)
				}
			case strings.HasPrefix(line, "paused: scale 1 failed"):
				if pauses++; pauses == 2 { // a second try failed too: the wait grows
					startAgain(t, inst)
				}
			}
		})
		if code != 0 {
			t.Fatalf("exit %d; stderr:\n%s", code, strings.Join(lines, "\n"))
		}
		got := readJSON[dsbenchStored](t, filepath.Join(dir, results.ResultsFile))
		if !got.Complete || len(got.Scales) != 2 || !got.Scales[0].Consistent || !got.Scales[1].Consistent || len(got.Scales[0].Cycles) != 2 {
			t.Errorf("complete %v, scales %+v: want both scales measured whole and consistent", got.Complete, got.Scales)
		}
		if len(got.Pauses) != 1 || got.Pauses[0].Unit != "scale 1" || got.Pauses[0].Outcome != results.PauseResolved || got.Pauses[0].Attempts < 2 || got.Pauses[0].Fault == "" {
			t.Fatalf("pauses %+v: want one resolved pause of scale 1 after at least 2 failed attempts, with its fault", got.Pauses)
		}
		page, err := os.ReadFile(filepath.Join(dir, "report.html"))
		if err != nil || !strings.Contains(string(page), "paused at scale 1 from") || !strings.Contains(string(page), results.PauseResolved) {
			t.Errorf("the page does not show the pause (%v)", err)
		}
	})

	t.Run("interrupted", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "run")
		stopped, signalled := false, false
		lines, _, code := runWatching(t, args(dir), func(line string, p *os.Process) {
			switch {
			case !stopped && strings.Contains(line, "scale 1") && strings.Contains(line, "cycle  1/2"):
				stopped = true
				if err := inst.Stop(); err != nil {
					t.Errorf("stop PostgreSQL: %v", err)
				}
			case !signalled && strings.HasPrefix(line, "paused: scale 1 failed"):
				signalled = true
				// A paused run is still going: resuming it is refused.
				if code, _, stderr := run("resume", dir); code != ExitBadInput || !strings.Contains(stderr, results.ErrRunBusy.Error()) {
					t.Errorf("resume of a paused run: exit %d, %q: want %d, refused as still running", code, stderr, ExitBadInput)
				}
				p.Signal(syscall.SIGINT)
			}
		})
		startAgain(t, inst)
		if code != ExitFailure {
			t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitFailure, strings.Join(lines, "\n"))
		}
		got := readJSON[dsbenchStored](t, filepath.Join(dir, results.ResultsFile))
		if got.Complete || !strings.Contains(got.Error, "signal") || len(got.Pauses) != 1 || got.Pauses[0].Outcome != results.PauseInterrupted {
			t.Errorf("complete %v, error %q, pauses %+v: want the interruption named and the pause ended by it", got.Complete, got.Error, got.Pauses)
		}
	})
}

// startAgain starts the private PostgreSQL inst again, in its directory and
// on its port, after a test stopped it.
func startAgain(t *testing.T, inst *server.Instance) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := server.Start(ctx, "postgres", inst.Dir, server.Options{Port: inst.Port}); err != nil {
		t.Fatalf("start PostgreSQL again: %v", err)
	}
}
