package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTooManyClients: more dsbench clients than the process may open
// files (prlimit lowers RLIMIT_NOFILE, soft and hard, so that Go cannot
// raise it) is a limit met at run time: exit 1 (not 2, the bad-input
// code, although SQLite says "unable to open database file"), one line
// naming the limit and the flags that lower the need, the population kept,
// no rate and no consistency verdict invented for the scale.
//
// Why not refuse it before the run (exit 2)? How many descriptors a client
// holds depends on the engine (one socket; SQLite's file, journal and
// WAL), and the process has others open: the count is known only when the
// sessions open.
func TestTooManyClients(t *testing.T) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Fatalf("prlimit (util-linux) is needed to lower the limit of open files: %v", err)
	}
	tmp := t.TempDir()
	out := filepath.Join(tmp, "run")
	cmd := exec.Command(prlimit, "--nofile=128:128", os.Args[0], "dsbench", "--db", "sqlite:"+filepath.Join(tmp, "x.db"), "--mode", "tpcb",
		"--scales", "1", "--cycles", "1", "--duration", "1s", "--threads", "200", "--out", out)
	cmd.Env = append(os.Environ(), "DBGAUGE_TEST_MAIN=1")
	b, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != ExitFailure {
		t.Fatalf("exit %v, want %d:\n%s", err, ExitFailure, b)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, "too many open files") || !strings.Contains(last, "--threads") || !strings.Contains(last, "at most 128 open files") {
		t.Errorf("last line %q: want the limit named with the fix", last)
	}
	var res struct {
		runResults
		Scales []struct {
			PopulateS     float64   `json:"populate_s"`
			Cycles        []float64 `json:"cycles"`
			MedianTPS     float64   `json:"median_tps"`
			Consistent    bool      `json:"consistent"`
			Inconsistency []string  `json:"inconsistency"`
		} `json:"scales"`
	}
	loadJSON(t, filepath.Join(out, "results.json"), &res)
	if res.Complete || !strings.Contains(res.Error, "too many open files") {
		t.Errorf("results.json: complete %v, error %q: want the limit named", res.Complete, res.Error)
	}
	if len(res.Scales) != 1 || res.Scales[0].PopulateS <= 0 || len(res.Scales[0].Cycles) != 0 || res.Scales[0].Consistent {
		t.Errorf("results.json scales %+v: want the population kept, no cycle, not consistent", res.Scales)
	}
	if strings.Contains(string(b), "median 0.0 tps") {
		t.Errorf("a rate of 0 tps is shown for a scale that ran no cycle:\n%s", b)
	}
}
