package cli

import (
	"bufio"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// catchHangup makes sure the dbgauge processes the test starts do not
// inherit an ignored SIGHUP (a `nohup make test`): a signal this process
// catches is reset to its default in its children, an ignored one stays
// ignored.
func catchHangup(t *testing.T) {
	if !signal.Ignored(syscall.SIGHUP) {
		return
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGHUP)
	t.Cleanup(func() { signal.Stop(c) })
}

// TestHangupEndsARunAsCtrlC: SIGHUP (the terminal closed: a dropped ssh
// session) in the middle of a minute-long dsbench cycle on SQLite ends
// the run as Ctrl-C does: exit 1, the last line and results.json naming
// the hangup, the population kept and no interrupted cycle stored, where
// the signal's default killed dbgauge with nothing written (exit 129).
func TestHangupEndsARunAsCtrlC(t *testing.T) {
	catchHangup(t)
	out := filepath.Join(t.TempDir(), "run")
	lines, code := signalAfter(t, syscall.SIGHUP, []string{"dsbench", "--mode", "select", "--scales", "1", "--cycles", "1",
		"--duration", "60s", "--threads", "2", "--out", out}, "cycle 1/1", "committed")
	if code != ExitFailure {
		t.Errorf("exit code %d, want %d (as after Ctrl-C); stderr:\n%s", code, ExitFailure, strings.Join(lines, "\n"))
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "hangup signal received") {
		t.Errorf("last line %q: want it to name the hangup", last)
	}
	res := readJSON[results.DSBenchResults](t, filepath.Join(out, results.ResultsFile))
	if res.Complete || !strings.Contains(res.Error, "hangup") {
		t.Errorf("results.json: complete %v, error %q: want the hangup named", res.Complete, res.Error)
	}
	if len(res.Scales) != 1 || res.Scales[0].PopulateS <= 0 || len(res.Scales[0].Cycles) != 0 {
		t.Errorf("results.json scales %+v: want scale 1's population kept and no interrupted cycle", res.Scales)
	}
}

// TestHangupUnderNohup: a run started with SIGHUP ignored (nohup) is not
// stopped by the hangup: it completes, exit 0.
func TestHangupUnderNohup(t *testing.T) {
	// Ignored here, ignored in the child, as nohup does it.
	signal.Ignore(syscall.SIGHUP)
	defer signal.Reset(syscall.SIGHUP)
	out := filepath.Join(t.TempDir(), "run")
	lines, code := signalAfter(t, syscall.SIGHUP, []string{"dsbench", "--mode", "select", "--scales", "1", "--cycles", "1",
		"--duration", "10s", "--threads", "2", "--out", out}, "cycle 1/1", "committed")
	if code != ExitOK {
		t.Fatalf("exit %d, want 0; stderr:\n%s", code, strings.Join(lines, "\n"))
	}
	if res := readJSON[runResults](t, filepath.Join(out, results.ResultsFile)); !res.Complete {
		t.Errorf("results.json: complete false, error %q: want the run complete", res.Error)
	}
}

// TestClosedOutputDoesNotStopARun: a dsbench whose reader goes away (`2>&1
// | head -1`: standard output and error into a pipe closed after the
// first line; `| head -1` with nothing read: standard output only) goes
// on measuring and completes, exit 0, with results.json. SIGPIPE's
// default killed it at the next write (exit 141), in the first case
// before anything was written.
func TestClosedOutputDoesNotStopARun(t *testing.T) {
	for _, c := range []struct {
		name   string
		stderr bool // stderr into the pipe too
	}{{"2>&1 | head -1", true}, {"| head -1", false}} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			cmd := exec.Command(os.Args[0], "dsbench", "--mode", "select", "--scales", "1", "--cycles", "1",
				"--duration", "1s", "--threads", "2", "--out", out)
			cmd.Env = append(os.Environ(), "DBGAUGE_TEST_MAIN=1")
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			var errText strings.Builder
			cmd.Stdout, cmd.Stderr = w, &errText
			if c.stderr {
				cmd.Stderr = w
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			if c.stderr {
				// head -1: the first line, then the reader is gone.
				if _, err := bufio.NewReader(r).ReadString('\n'); err != nil {
					t.Fatalf("first line: %v", err)
				}
			}
			r.Close()
			err = cmd.Wait()
			if err != nil {
				t.Fatalf("exit: %v, want 0; stderr:\n%s", err, errText.String())
			}
			if res := readJSON[runResults](t, filepath.Join(out, results.ResultsFile)); !res.Complete {
				t.Errorf("results.json: complete false, error %q: want the run complete", res.Error)
			}
		})
	}
}
