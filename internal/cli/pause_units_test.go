package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestPauseOnErrorPairsAndPoints: with --pause-on-error, a private
// PostgreSQL stopped during an A/B test (after its first query) or a
// speedup run (after its first point) does not end the run: the next unit
// (a pair, a point) pauses, is tried again on new sessions once the
// server is back, and the run completes with every unit measured once and
// the pause recorded as resolved.
func TestPauseOnErrorPairsAndPoints(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	cases := []struct {
		name, stopAt string
		args         []string
		units        int
	}{
		// The server is stopped after the first query (point); the
		// units after it take long enough that one of them finds it gone.
		{"abtest", "Q1     warm",
			[]string{"abtest", "--db", inst.URL, "--a-session", "SET enable_hashjoin = off", "--b-session", "SET enable_hashjoin = on",
				"--wisconsin", "1,9,10,11,2", "--size", "2000", "--reps", "30"}, 5 * (30 + 1)},
		{"speedup", "0% selection (heap, unique2)                       x=1 ",
			[]string{"speedup", "--db", inst.URL, "--parallelism", "1,2", "--size", "2000", "--reps", "5"}, 18 * 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			stopped, pauses, unit := false, 0, ""
			lines, _, code := runWatching(t, append(c.args, "--pause-on-error", "--out", dir), func(line string, p *os.Process) {
				switch {
				case !stopped && strings.Contains(line, c.stopAt):
					stopped = true
					if err := inst.Stop(); err != nil {
						t.Errorf("stop PostgreSQL: %v", err)
					}
				case stopped && strings.HasPrefix(line, "paused: "):
					if unit == "" {
						unit, _, _ = strings.Cut(strings.TrimPrefix(line, "paused: "), " failed (")
					}
					if pauses++; pauses == 2 { // a second try failed too
						startAgain(t, inst)
					}
				}
			})
			if stopped && pauses < 2 {
				startAgain(t, inst) // for the next case
			}
			if !stopped || code != 0 {
				t.Fatalf("stopped %v, exit %d; stderr:\n%s", stopped, code, strings.Join(lines, "\n"))
			}
			onceEach(t, dir, c.units)
			got := readJSON[struct {
				Complete bool            `json:"complete"`
				Pauses   []results.Pause `json:"pauses"`
			}](t, filepath.Join(dir, results.ResultsFile))
			if !got.Complete || len(got.Pauses) != 1 || got.Pauses[0].Unit != unit || got.Pauses[0].Outcome != results.PauseResolved || got.Pauses[0].Attempts < 2 {
				t.Errorf("complete %v, pauses %+v: want one resolved pause of %q after at least 2 failed attempts", got.Complete, got.Pauses, unit)
			}
		})
	}
}
