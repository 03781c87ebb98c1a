package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestWisconsinServerStopsAnswering: every process of a private PostgreSQL
// is stopped (SIGSTOP) while wisconsin times its second query. With
// --limit 2s, the repetition that met the silence fails after the stated
// wait (the limit plus 10 s: the timed statement's back-up deadline, then
// the same for a new session or an untimed statement), the query is marked
// failed, never a result, the run ends there with exit 1 and the fault in
// words, and the first query's samples are kept.
func TestWisconsinServerStopsAnswering(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	out := filepath.Join(t.TempDir(), "run")
	var stopped []int
	t.Cleanup(func() {
		for _, pid := range stopped {
			syscall.Kill(pid, syscall.SIGCONT)
		}
	})
	lines, _, code := runWatching(t, []string{"wisconsin", "--db", inst.URL, "--size", "1000", "--org", "heap", "--queries", "1,2",
		"--reps", "500", "--limit", "2s", "--out", out}, func(line string, _ *os.Process) {
		if stopped == nil && strings.Contains(line, "Q1 ") && strings.Contains(line, "median") {
			stopped = processTree(t, inst.PID)
			for _, pid := range stopped {
				syscall.Kill(pid, syscall.SIGSTOP)
			}
		}
	})
	stderr := strings.Join(lines, "\n")
	if stopped == nil {
		t.Fatalf("Q1 never finished:\n%s", stderr)
	}
	const fault = "the server did not answer within 12s"
	if code != ExitFailure || !strings.Contains(lines[len(lines)-1], fault) {
		t.Errorf("exit %d, want %d and the last line naming the silence; stderr:\n%s", code, ExitFailure, stderr)
	}
	var res struct {
		runResults
		Queries []struct {
			Query     int       `json:"query"`
			Status    string    `json:"status"`
			Reason    string    `json:"reason"`
			SamplesMS []float64 `json:"samples_ms"`
		} `json:"queries"`
	}
	readJSON(t, out, "results.json", &res)
	if res.Complete || !strings.Contains(res.Error, fault) {
		t.Errorf("results.json: complete %v, error %q: want the silence named", res.Complete, res.Error)
	}
	if len(res.Queries) != 2 || res.Queries[0].Status != "ok" || len(res.Queries[0].SamplesMS) != 500 {
		t.Fatalf("results.json queries %+v: want Q1 kept whole", res.Queries)
	}
	if q := res.Queries[1]; q.Status != "error" || !strings.Contains(q.Reason, fault) {
		t.Errorf("Q2: status %q, reason %q: want it failed by the silence", q.Status, q.Reason)
	}
	for _, ms := range res.Queries[1].SamplesMS {
		if ms >= 2000 {
			t.Errorf("Q2 keeps a sample of %v ms, the silence's wait", ms)
		}
	}
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
