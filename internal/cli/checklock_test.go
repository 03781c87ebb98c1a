package cli

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestLockDuringConsistencyCheck: another session holds SQLite's exclusive
// lock from the middle of dsbench's first cycle into the balance check
// after it. A lock let go within the check's time-out (30 s) costs a pause:
// the sweep goes on and is consistent. A lock held longer is a fault named
// as such: exit 1, the finished cycle kept, the scale's consistency "not
// checked" rather than failed, and the page says so.
func TestLockDuringConsistencyCheck(t *testing.T) {
	for _, held := range []bool{false, true} {
		name := map[bool]string{false: "let go", true: "held"}[held]
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			db, out := filepath.Join(tmp, "x.db"), filepath.Join(tmp, "run")
			var release func()
			var once sync.Once
			lines, _, code := runWatching(t, []string{"dsbench", "--db", "sqlite:" + db, "--mode", "tpcb", "--scales", "1",
				"--cycles", "2", "--duration", "10s", "--threads", "2", "--out", out}, func(line string, _ *os.Process) {
				if strings.Contains(line, "cycle 1/2") {
					once.Do(func() { release = lockSQLite(t, db) })
				}
				if !held && strings.Contains(line, "the consistency check waits") {
					release()
				}
			})
			stderr := strings.Join(lines, "\n")
			if release == nil {
				t.Fatalf("no progress line during cycle 1; stderr:\n%s", stderr)
			}
			release()
			if !strings.Contains(stderr, "the database is locked") {
				t.Errorf("no line says the check waits for the lock; stderr:\n%s", stderr)
			}
			var res struct {
				runResults
				Scales []struct {
					Cycles        []float64 `json:"cycles"`
					Consistent    bool      `json:"consistent"`
					Inconsistency []string  `json:"inconsistency"`
					Unchecked     string    `json:"unchecked"`
				} `json:"scales"`
			}
			loadJSON(t, filepath.Join(out, "results.json"), &res)
			if len(res.Scales) != 1 {
				t.Fatalf("results.json: %d scales, want 1", len(res.Scales))
			}
			s := res.Scales[0]
			if !held {
				if code != ExitOK || !res.Complete || !s.Consistent || len(s.Cycles) != 2 {
					t.Errorf("exit %d, complete %v, consistent %v, %d cycles: want the sweep to go on after the lock; stderr:\n%s", code, res.Complete, s.Consistent, len(s.Cycles), stderr)
				}
				return
			}
			if code != ExitFailure {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, ExitFailure, stderr)
			}
			const fault = "database locked during the consistency check"
			if last := lines[len(lines)-1]; !strings.Contains(stderr, "dbgauge: after cycle 1: "+fault) {
				t.Errorf("stderr does not name the lock (last line %q):\n%s", last, stderr)
			}
			if res.Complete || !strings.Contains(res.Error, fault) {
				t.Errorf("results.json: complete %v, error %q: want the lock named", res.Complete, res.Error)
			}
			if len(s.Cycles) != 1 || s.Consistent || len(s.Inconsistency) != 0 || !strings.Contains(s.Unchecked, fault) {
				t.Errorf("scale: %d cycles, consistent %v, inconsistency %q, unchecked %q: want cycle 1 kept, not checked, no inconsistency",
					len(s.Cycles), s.Consistent, s.Inconsistency, s.Unchecked)
			}
			if code, _, e := runBinary(t, "report", out); code != ExitOK {
				t.Fatalf("report %s: exit %d\n%s", out, code, e)
			}
			page, err := os.ReadFile(filepath.Join(out, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(page), "consistency not checked") || strings.Contains(string(page), "failed its consistency check") ||
				strings.Contains(string(page), "no cycle finished") {
				t.Errorf("report.html does not say the check was not made (or calls it a failure)")
			}
		})
	}
}
