package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runSweep runs the sizesweep command as Run would, whether or not the
// root has it registered: output, one error line, the exit code.
func runSweep(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	cmd := commands["sizesweep"](&o, &e)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetFlagErrorFunc(flagError) // as the root gives its commands
	cmd.SetArgs(args)
	cmd.SetOut(&o)
	cmd.SetErr(&e)
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		fmt.Fprintf(&e, "dbgauge: %s\n", firstLine(err.Error()))
		return exitCode(err), o.String(), e.String()
	}
	return ExitOK, o.String(), e.String()
}

// Bad sizesweep input: one line naming the flag, exit code 2, nothing written.
func TestSizeSweepBadInput(t *testing.T) {
	tmp := t.TempDir()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"size not a number", []string{"--sizes", "100,lots"}, "--sizes"},
		{"size too large", []string{"--sizes", "1000,2000000000"}, "above the largest"},
		{"size twice", []string{"--sizes", "1000,1000"}, "given twice"},
		{"unknown access", []string{"--access", "none,hash"}, "unknown value"},
		{"access twice", []string{"--access", "none,none"}, "given twice"},
		{"unknown retrieve", []string{"--retrieve", "all"}, "give single or 1pct"},
		{"1pct below 100", []string{"--retrieve", "1pct", "--sizes", "50,1000"}, "at least 100"},
		{"unknown basis", []string{"--basis", "mode"}, "give mean or median"},
		{"zero reps", []string{"--reps", "0"}, "at least 1"},
		{"negative warmup", []string{"--warmup", "-1"}, "must not be negative"},
		{"bad seed", []string{"--seed", "x"}, "--seed"},
		{"unknown engine", []string{"--db", "oracle://x/y"}, "oracle"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(tmp, strings.ReplaceAll(c.name, " ", "-"))
			code, stdout, stderr := runSweep(append(c.args, "--out", out)...)
			if code != ExitBadInput {
				t.Errorf("exit code %d, want 2 (stderr %q)", code, stderr)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, c.want) || stdout != "" {
				t.Errorf("stderr %q stdout %q: want one line containing %q", stderr, stdout, c.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was written on bad input", out)
			}
		})
	}
}

// The whole command path on embedded SQLite: sizes below the generator's
// 100 are cut, the tables and the run directory are written.
func TestSizeSweepCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runSweep("--sizes", "50,300,600,1200", "--reps", "2", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Retrieval time against relation size", "least-squares line", "Non-clustered / clustered", "Scale model", out} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	for _, f := range []string{"results.json", "sizesweep.txt", "sizesweep.csv", "sizesweep.svg", "sizesweep.png", "manifest.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	man, _ := os.ReadFile(filepath.Join(out, "manifest.json"))
	if !strings.Contains(string(man), `"sizes": "50,300,600,1200"`) {
		t.Errorf("manifest lacks the effective --sizes:\n%s", man)
	}
}
