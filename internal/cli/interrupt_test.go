package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// signalAfter starts dbgauge (this test binary, see TestMain) with args,
// sends sig once a line of its stderr contains every one of after, and
// returns its stderr lines and exit code. It fails the test when dbgauge
// takes more than a minute to end after the signal: it did not stop.
func signalAfter(t *testing.T, sig syscall.Signal, args []string, after ...string) (lines []string, code int) {
	t.Helper()
	var sent, stuck atomic.Bool
	lines, _, code = runWatching(t, args, func(line string, p *os.Process) {
		if sent.Load() {
			return
		}
		for _, a := range after {
			if !strings.Contains(line, a) {
				return
			}
		}
		p.Signal(sig)
		sent.Store(true)
		time.AfterFunc(time.Minute, func() { stuck.Store(true); p.Kill() })
	})
	if !sent.Load() {
		t.Fatalf("dbgauge ended before the signal (exit %d); stderr:\n%s", code, strings.Join(lines, "\n"))
	}
	if stuck.Load() {
		t.Fatalf("dbgauge did not end within a minute of %v; stderr:\n%s", sig, strings.Join(lines, "\n"))
	}
	return lines, code
}

// TestSignalDuringWisconsinQuery: Ctrl-C (SIGINT) or SIGTERM while a
// query runs (Q19, the 100% projection, takes about a second at N =
// 200,000 on SQLite) never stores the interrupted query as a result: it is
// marked interrupted, with no time of the interrupted execution among its
// samples; results.json says the run is incomplete and names the signal,
// and dbgauge exits 1. The query that finished before is kept as measured.
func TestSignalDuringWisconsinQuery(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			lines, code := signalAfter(t, sig, []string{"wisconsin", "--size", "200000", "--org", "heap", "--queries", "1,19", "--reps", "5", "--out", out},
				"Q1 ", "median")
			if code != ExitFailure {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, ExitFailure, strings.Join(lines, "\n"))
			}
			var res struct {
				Complete bool   `json:"complete"`
				Error    string `json:"error"`
				Queries  []struct {
					Query     int       `json:"query"`
					Status    string    `json:"status"`
					Reason    string    `json:"reason"`
					Rows      int64     `json:"rows"`
					Expected  int64     `json:"expected_rows"`
					Reps      int       `json:"reps"`
					SamplesMS []float64 `json:"samples_ms"`
				} `json:"queries"`
			}
			b, err := os.ReadFile(filepath.Join(out, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			if res.Complete || !strings.Contains(res.Error, "signal") {
				t.Errorf("results.json: complete %v, error %q: want the interruption named", res.Complete, res.Error)
			}
			if len(res.Queries) != 2 || res.Queries[0].Query != 1 || res.Queries[0].Status != "ok" {
				t.Fatalf("results.json queries %+v: want Q1 ok and Q19", res.Queries)
			}
			q := res.Queries[1]
			if q.Query != 19 || q.Status != "interrupted" || !strings.Contains(q.Reason, "signal") {
				t.Errorf("Q19: status %q, reason %q: want interrupted by the signal", q.Status, q.Reason)
			}
			for _, ms := range q.SamplesMS {
				if !(ms > 0) {
					t.Errorf("Q19 samples %v: a sample that is not a finished execution's time", q.SamplesMS)
				}
			}
			if q.Reps != len(q.SamplesMS) || q.Reps >= 5 {
				t.Errorf("Q19: %d reps, %d samples: want only the finished repetitions", q.Reps, len(q.SamplesMS))
			}
			// The journal marks the interrupted execution as such.
			j, err := os.ReadFile(filepath.Join(out, "journal.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(j), `"interrupted":true`) {
				t.Errorf("journal.jsonl marks no execution interrupted")
			}
			// The page does not show the interrupted query as measured.
			page, err := os.ReadFile(filepath.Join(out, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(page), "INTERRUPTED") {
				t.Errorf("report.html does not say Q19 was interrupted")
			}
		})
	}
}
