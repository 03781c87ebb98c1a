package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDSBenchRefusesAbsurdRate: a --rate no client machine can start is
// refused before anything runs: one line naming the flag and the fix,
// exit code 2, no run directory. A rate at the bound is accepted by the
// flag (this case stops at a later, unrelated refusal).
func TestDSBenchRefusesAbsurdRate(t *testing.T) {
	tmp := t.TempDir()
	for _, rate := range []string{"1e12", "1e300", "10000001"} {
		out := filepath.Join(tmp, "run-"+rate)
		code, _, stderr := run("dsbench", "--rate", rate, "--threads", "1", "--scales", "1", "--cycles", "1", "--duration", "1s", "--out", out)
		if code != ExitBadInput {
			t.Errorf("--rate %s: exit code %d, want %d (stderr %q)", rate, code, ExitBadInput, stderr)
		}
		if strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "--rate") || !strings.Contains(stderr, "at most") {
			t.Errorf("--rate %s: stderr %q: want one line naming --rate and its bound", rate, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("--rate %s: %s was written on bad input", rate, out)
		}
	}
	out := filepath.Join(tmp, "run-bound")
	code, _, stderr := run("dsbench", "--rate", "1e7", "--nodes", "2", "--out", out)
	if code != ExitBadInput || strings.Contains(stderr, "--rate") {
		t.Errorf("--rate 1e7: exit code %d, stderr %q: want the rate accepted and --nodes refused", code, stderr)
	}
}
