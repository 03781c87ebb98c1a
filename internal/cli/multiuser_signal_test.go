package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/results"
)

// multiuserStopBound bounds how long a stopped multiuser run may take to
// end: generous (it ends in well under a second on an idle machine), it
// only says that it ends at all. Before, the run summarised every
// repetition it had measured with a sort per bootstrap resample and, some
// minutes into --reps 1000000000, was still summarising when it was
// killed.
const multiuserStopBound = 30 * time.Second

// multiuser --reps 1000000000 on the embedded SQLite stops on SIGTERM:
// it ends (exit 1, a failed run), keeping the repetitions it measured in
// results.json.
func TestMultiuserStopsOnSIGTERM(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	p := startProc(t, "multiuser", os.Args[0], "multiuser", "--reps", "1000000000", "--users", "0,1,2",
		"--tuples", "10000", "--out", out)
	p.waitLine(`users\s+2\s+repetition 3/1000000000`)
	p.kill(syscall.SIGTERM)
	deadline := time.After(multiuserStopBound)
	for {
		p.mu.Lock()
		ended, code, ch := p.ended, p.code, p.changed
		p.mu.Unlock()
		if ended {
			if code != ExitFailure {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, ExitFailure, p.stderr())
			}
			break
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("still running %v after SIGTERM; stderr:\n%s", multiuserStopBound, p.stderr())
		}
	}
	b, err := os.ReadFile(filepath.Join(out, results.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	var res results.MultiuserResults
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) < 9 || res.Complete {
		t.Errorf("results.json keeps %d runs (complete %v), want the 3 x 3 measured at least, incomplete", len(res.Runs), res.Complete)
	}
}
