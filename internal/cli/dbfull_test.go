package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// TestDiskFullUnderDatabase: the embedded database lives on a small tmpfs
// that the run outgrows (the run directory is elsewhere). dsbench: scale 1
// (11 MB) fits in 16 MiB, scale 2's population (23 MB) does not. wisconsin:
// the relations at N = 10,000 (4.3 MB) fit in 5 MiB, Q19's copy of
// TENKTUP1 into a result relation does not. Each ends with exit 1, the
// fault in words ("no space left on device"), what was measured before
// kept, and a page that says it.
func TestDiskFullUnderDatabase(t *testing.T) {
	for _, c := range []struct {
		name, size string
		args       func(db string) []string
		kept       func(t *testing.T, out string)
	}{
		{"dsbench", "16m", func(db string) []string {
			return []string{"dsbench", "--db", "sqlite:" + db, "--mode", "tpcb", "--scales", "1,2", "--cycles", "2", "--duration", "2s", "--threads", "2"}
		}, func(t *testing.T, out string) {
			res := readJSON[results.DSBenchResults](t, filepath.Join(out, "results.json"))
			if len(res.Scales) == 0 || res.Scales[0].Scale != 1 || len(res.Scales[0].Cycles) != 2 {
				t.Errorf("results.json scales %+v: want scale 1's two cycles kept", res.Scales)
			}
		}},
		{"wisconsin", "5m", func(db string) []string {
			return []string{"wisconsin", "--db", "sqlite:" + db, "--size", "10000", "--org", "heap", "--queries", "1,19", "--reps", "3"}
		}, func(t *testing.T, out string) {
			res := readJSON[results.WisconsinResults](t, filepath.Join(out, "results.json"))
			if len(res.Queries) != 2 || res.Queries[0].Status != "ok" || len(res.Queries[0].SamplesMS) != 3 || res.Queries[1].Status != "error" {
				t.Errorf("results.json queries %+v: want Q1 kept, Q19 failed", res.Queries)
			}
		}},
		// qac and multiuser only read the database once its relations are
		// made: a full disk strikes them while loading, before anything is
		// measured (1 MiB holds a fraction of the relation).
		{"qac", "1m", func(db string) []string {
			return []string{"qac", "--db", "sqlite:" + db, "--wisconsin", "2", "--cardinalities", "10000,20000", "--qe", "12"}
		}, nothingMeasured},
		{"multiuser", "1m", func(db string) []string {
			return []string{"multiuser", "--db", "sqlite:" + db, "--tuples", "10000", "--users", "1,4", "--reps", "2"}
		}, nothingMeasured},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			db := filepath.Join(mountTmpfs(t, tmp, c.size), "x.db")
			out := filepath.Join(tmp, "run")
			code, _, stderr := runBinary(t, append(c.args(db), "--out", out)...)
			const fault = "no space left on device"
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != ExitFailure || !strings.Contains(lines[len(lines)-1], fault) {
				t.Errorf("exit %d, want %d and the last line naming the full disk; stderr:\n%s", code, ExitFailure, stderr)
			}
			var res runResults
			loadJSON(t, filepath.Join(out, "results.json"), &res)
			if res.Complete || !strings.Contains(res.Error, fault) {
				t.Errorf("results.json: complete %v, error %q: want the full disk named", res.Complete, res.Error)
			}
			t.Logf("%s: exit %d; %s", c.name, code, lines[len(lines)-1])
			c.kept(t, out)
			if code, _, e := runBinary(t, "report", out); code != ExitOK {
				t.Errorf("dbgauge report %s: exit %d\n%s", out, code, e)
			}
			if page, err := os.ReadFile(filepath.Join(out, "report.html")); err != nil || !strings.Contains(string(page), fault) {
				t.Errorf("report.html does not say %q (%v)", fault, err)
			}
			noHalfWritten(t, out)
		})
	}
}

// nothingMeasured: the run failed before its first measurement, and
// results.json holds no time.
func nothingMeasured(t *testing.T, out string) {
	t.Helper()
	if n := measuredTimes(t, out); n != 0 {
		t.Errorf("results.json holds %d times of a run that measured nothing", n)
	}
}
