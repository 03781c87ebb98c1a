package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTooManyClientsRefused: more client sessions than the process may
// open files, at one file each, is refused before anything starts: exit
// 2, one line naming the flags, the limit and the fix, nothing written.
func TestTooManyClientsRefused(t *testing.T) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Fatalf("prlimit (util-linux) is needed to lower the limit of open files: %v", err)
	}
	tmp := t.TempDir()
	out := filepath.Join(tmp, "run")
	cmd := exec.Command(prlimit, "--nofile=128:128", os.Args[0], "dsbench", "--db", "sqlite:"+filepath.Join(tmp, "x.db"),
		"--scales", "1", "--cycles", "1", "--duration", "1s", "--threads", "200", "--out", out)
	cmd.Env = append(os.Environ(), "DBGAUGE_TEST_MAIN=1")
	b, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != ExitBadInput {
		t.Fatalf("exit %v, want %d:\n%s", err, ExitBadInput, b)
	}
	line := strings.TrimSpace(string(b))
	for _, want := range []string{"--threads 200 x --connections 1", "may open 128 files", "give --threads 112 at most, or raise ulimit -n"} {
		if strings.Contains(line, "\n") || !strings.Contains(line, want) {
			t.Errorf("stderr %q: want one line with %q", line, want)
		}
	}
	if got := listing(t, tmp); len(got) > 0 {
		t.Errorf("written on bad input: %v", got)
	}
}

// TestTooManyClients: more clients than the process may open files
// (prlimit lowers RLIMIT_NOFILE, soft and hard, so that Go cannot raise
// it) is a limit met at run time: exit 1 (not 2, the bad-input code,
// although SQLite says "unable to open database file"), one line naming
// the limit and the flags that lower the need, what was measured before
// kept, nothing invented for the measurement that could not start.
//
// Why not refuse all of it before the run (exit 2)? How many descriptors a
// client holds depends on the engine (one socket; SQLite's file, journal
// and WAL) and on the form (a user process's pipes), and the process has
// others open: the count is known only when the sessions open. What is
// refused before the run is a load that could never fit, at least one
// file a session (TestTooManyClientsRefused).
func TestTooManyClients(t *testing.T) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Fatalf("prlimit (util-linux) is needed to lower the limit of open files: %v", err)
	}
	for _, c := range []struct {
		name string
		args func(db string) []string
		flag string // the flag the last line names as the fix
		kept func(t *testing.T, out, stderr string)
	}{
		// One user fits; 100 users, each a process of its own whose pipes
		// this process holds (about three files a user), do not, though
		// the check before the run (a file a user) let them through.
		{"multiuser", func(db string) []string {
			return []string{"multiuser", "--db", "sqlite:" + db, "--users", "1,100", "--processes", "--tuples", "1000", "--retrieves", "5", "--reps", "2"}
		}, "--users", func(t *testing.T, out, stderr string) {
			var res struct {
				Runs []struct {
					Users int `json:"users"`
				} `json:"runs"`
			}
			loadJSON(t, filepath.Join(out, "results.json"), &res)
			// Repetition 1 of every user count comes before repetition 2.
			if len(res.Runs) != 1 || res.Runs[0].Users != 1 {
				t.Errorf("results.json runs %+v: want repetition 1 of 1 user kept, none of 200", res.Runs)
			}
			if measuredTimes(t, out) == 0 {
				t.Errorf("results.json keeps no time")
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			out := filepath.Join(tmp, "run")
			cmd := exec.Command(prlimit, append([]string{"--nofile=128:128", os.Args[0]}, append(c.args(filepath.Join(tmp, "x.db")), "--out", out)...)...)
			cmd.Env = append(os.Environ(), "DBGAUGE_TEST_MAIN=1")
			b, err := cmd.CombinedOutput()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != ExitFailure {
				t.Fatalf("exit %v, want %d:\n%s", err, ExitFailure, b)
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			last := lines[len(lines)-1]
			if !strings.Contains(last, "too many open files") || !strings.Contains(last, c.flag) || !strings.Contains(last, "at most 128 open files") {
				t.Errorf("last line %q: want the limit named with the fix (%s)", last, c.flag)
			}
			var res runResults
			loadJSON(t, filepath.Join(out, "results.json"), &res)
			if res.Complete || !strings.Contains(res.Error, "too many open files") {
				t.Errorf("results.json: complete %v, error %q: want the limit named", res.Complete, res.Error)
			}
			c.kept(t, out, string(b))
			if code, _, e := runBinary(t, "report", out); code != ExitOK {
				t.Errorf("dbgauge report %s: exit %d\n%s", out, code, e)
			}
			if page, err := os.ReadFile(filepath.Join(out, "report.html")); err != nil || !strings.Contains(string(page), "too many open files") {
				t.Errorf("report.html does not name the limit (%v)", err)
			}
			noHalfWritten(t, out)
		})
	}
}
