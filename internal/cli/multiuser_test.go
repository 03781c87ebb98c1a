package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// runMultiuser runs the multiuser command as Run would (exit code, one
// line on stderr), without depending on its registration in the root.
func runMultiuser(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	cmd := commands["multiuser"](&o, &e)
	cmd.SetArgs(args)
	cmd.SetOut(&o)
	cmd.SetErr(&e)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetFlagErrorFunc(flagError) // as the root gives its commands
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		e.WriteString("dbgauge: " + firstLine(err.Error()) + "\n")
		return exitCode(err), o.String(), e.String()
	}
	return 0, o.String(), e.String()
}

// Bad input: one line naming the problem, exit code 2, nothing written.
func TestMultiuserBadInput(t *testing.T) {
	tmp := t.TempDir()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no one user", []string{"--users", "0,2,4"}, "include 1"},
		{"user twice", []string{"--users", "0,1,1"}, "given twice"},
		{"negative users", []string{"--users", "1,-2"}, "not a whole number"},
		{"subtract without zero", []string{"--users", "1,2", "--subtract-overhead"}, "include 0"},
		{"tuples not a multiple of 100", []string{"--tuples", "1050"}, "multiple of 100"},
		{"zero reps", []string{"--reps", "0"}, "at least 1"},
		{"rows above tuples", []string{"--tuples", "1000", "--rows", "1001"}, "between 1 and --tuples"},
		{"duckdb", []string{"--db", "duckdb::memory:"}, "DuckDB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(tmp, "out-"+strings.ReplaceAll(c.name, " ", "-"))
			code, stdout, stderr := runMultiuser(append(c.args, "--out", out)...)
			if code != 2 {
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

// The whole command on the embedded SQLite: the table on stdout, the run
// directory with results.json in which thruput(1) is 1.
func TestMultiuserCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runMultiuser("--tuples", "1000", "--users", "0,1,2", "--reps", "1", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "thruput") || !strings.Contains(stdout, out) {
		t.Errorf("stdout:\n%s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res results.MultiuserResults
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if !res.Complete || len(res.Points) != 3 || res.Points[1].Thruput == nil || *res.Points[1].Thruput != 1 || res.Mode != "goroutines" {
		t.Errorf("results: %s", b)
	}
}
