package cli

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestServerStopsAnsweringTimedQueries: every process of a private
// PostgreSQL is stopped (SIGSTOP) while wisconsin or qac times its
// queries. The call that waits on the silent server fails after the URL's
// io_timeout (2 s here; 30 s by default), the measurement is marked
// failed (wisconsin's query, qac's QE, dropped by the protocol), never a
// result, and the run ends with exit 1 and the time-out in words; what was
// measured before is kept.
func TestServerStopsAnsweringTimedQueries(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	url := inst.URL + "?io_timeout=2s"
	// multiuser prints a line between repetitions only, and each
	// repetition connects its users anew: the silence waits until a user
	// of the next repetition is retrieving (a sleep guessed at that and,
	// on a busy machine, stopped the server while the users connected:
	// the run then ended on the connect's time-out).
	ready := map[string]func(){"multiuser": func() { waitRetrieving(t, inst.URL) }}
	for _, c := range []struct {
		name  string
		args  []string
		after []string
		kept  func(t *testing.T, out string)
	}{
		{"wisconsin", []string{"wisconsin", "--size", "1000", "--org", "heap", "--queries", "1,2", "--reps", "500"}, []string{"Q1 ", "median"},
			func(t *testing.T, out string) {
				res := readJSON[results.WisconsinResults](t, filepath.Join(out, "results.json"))
				if len(res.Queries) != 2 || res.Queries[0].Status != "ok" || len(res.Queries[0].SamplesMS) != 500 {
					t.Fatalf("results.json queries %+v: want Q1 kept whole", res.Queries)
				}
				if q := res.Queries[1]; q.Status != "error" || !strings.Contains(q.Reason, "no answer from the server") {
					t.Errorf("Q2: status %q, reason %q: want it failed by the silence", q.Status, q.Reason)
				}
			}},
		{"qac", []string{"qac", "--wisconsin", "2", "--cardinalities", "1000,2000", "--qe", "200"}, []string{"cardinality 1000 ", "QE  5/"},
			func(t *testing.T, out string) {
				res := readJSON[results.QACResults](t, filepath.Join(out, "results.json"))
				failed, kept := 0, 0
				for _, q := range res.QaCs {
					for _, qe := range q.QEs {
						if qe.Error != "" {
							failed++
							if !qe.Dropped {
								t.Errorf("a failed QE kept by the protocol: %q", qe.Error)
							}
						} else {
							kept++
						}
					}
				}
				// A Q@C is kept whole or not at all (docs/ttp.md): the QEs
				// measured before the silence are in the journal.
				j, err := os.ReadFile(filepath.Join(out, "journal.jsonl"))
				if err != nil {
					t.Fatal(err)
				}
				n := strings.Count(string(j), `"type":"qe"`)
				t.Logf("qac: %d QEs in results.json, %d failed; %d in the journal", kept, failed, n)
				if n < 5 {
					t.Errorf("the journal holds %d QEs, want the 5 measured before the silence", n)
				}
			}},
		// The commands that end at the first failed measurement: the
		// measurements before the silence kept, the one it cut short not
		// stored as a time.
		{"multiuser", []string{"multiuser", "--users", "1,4", "--tuples", "10000", "--retrieves", "3000", "--reps", "3"}, []string{"users   1  repetition 1/3"}, keptTimes},
		{"abtest", []string{"abtest", "--size", "5000", "--wisconsin", "9-11", "--reps", "300",
			"--a-session", "SET work_mem='1MB'", "--b-session", "SET work_mem='64MB'"}, []string{"Q9 ", "warm A", "A/B"}, keptTimes},
		{"speedup", []string{"speedup", "--size", "5000", "--parallelism", "1,2", "--reps", "200"}, []string{"Q1 1% selection", "x=1 ", "median"}, keptTimes},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			var stopped []int
			defer func() {
				for _, pid := range stopped {
					syscall.Kill(pid, syscall.SIGCONT)
				}
			}()
			lines, _, code := runWatching(t, append(c.args, "--db", url, "--out", out), func(line string, _ *os.Process) {
				for _, a := range c.after {
					if !strings.Contains(line, a) {
						return
					}
				}
				if stopped == nil {
					if r := ready[c.name]; r != nil {
						r()
					}
					stopped = processTree(t, inst.PID)
					for _, pid := range stopped {
						syscall.Kill(pid, syscall.SIGSTOP)
					}
				}
			})
			stderr := strings.Join(lines, "\n")
			if stopped == nil {
				t.Fatalf("the server was never stopped:\n%s", stderr)
			}
			const fault = "no answer from the server within the I/O time-out of 2s"
			if code != ExitFailure || !strings.Contains(lines[len(lines)-1], fault) {
				t.Errorf("exit %d, want %d and the last line naming the silence; stderr:\n%s", code, ExitFailure, stderr)
			}
			var res runResults
			loadJSON(t, filepath.Join(out, "results.json"), &res)
			if res.Complete || !strings.Contains(res.Error, fault) {
				t.Errorf("results.json: complete %v, error %q: want the silence named", res.Complete, res.Error)
			}
			t.Logf("%s: %s", c.name, lines[len(lines)-1])
			c.kept(t, out)
			// The server answers again before the page is rendered anew.
			for _, pid := range stopped {
				syscall.Kill(pid, syscall.SIGCONT)
			}
			if code, _, e := runBinary(t, "report", out); code != ExitOK {
				t.Errorf("dbgauge report %s: exit %d\n%s", out, code, e)
			}
			if page, err := os.ReadFile(filepath.Join(out, "report.html")); err != nil || !strings.Contains(string(page), "no answer from the server") {
				t.Errorf("report.html does not name the silence (%v)", err)
			}
			noHalfWritten(t, out)
		})
	}
}

// waitRetrieving returns once another session of the server runs a
// SELECT, polling for at most a minute.
func waitRetrieving(t *testing.T, url string) {
	t.Helper()
	e, err := dbms.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		rows, err := e.QueryRows(context.Background(), "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND query ILIKE 'select%'")
		if err != nil {
			t.Fatal(err)
		}
		if rows[0][0] != "0" {
			return
		}
	}
	t.Fatal("no session of the run retrieved within a minute")
}

// processTree is pid and its children (a server's postmaster and its
// backends), from /proc.
func processTree(t *testing.T, pid int) []int {
	t.Helper()
	out := []int{pid}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after ')'.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}

// keptTimes: results.json keeps a time measured before the fault, and
// none of its times is an execution cut short.
func keptTimes(t *testing.T, out string) {
	t.Helper()
	if measuredTimes(t, out) == 0 {
		t.Errorf("results.json keeps no time measured before the fault")
	}
}
