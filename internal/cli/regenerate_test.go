package cli

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// TestReportRegeneratesEveryFile runs every experiment small on the
// embedded engine, copies each run directory, deletes from the copy every
// file derived from the stored results (tables, CSV, diagrams, bench.txt,
// report.html), runs `dbgauge report` on the copy and expects every file
// back, byte for byte as the run wrote it.
func TestReportRegeneratesEveryFile(t *testing.T) {
	tmp := t.TempDir()
	cases := map[string][]string{
		"wisconsin": {"wisconsin", "--size", "100", "--reps", "2", "--queries", "1-4"},
		"dsbench":   {"dsbench", "--scales", "1", "--duration", "1s", "--cycles", "1", "--threads", "2"},
		"qac":       {"qac", "--wisconsin", "1", "--cardinalities", "1000,2000", "--qe", "6"},
		"multiuser": {"multiuser", "--tuples", "1000", "--users", "0,1,2", "--reps", "2", "--retrieves", "5"},
		"sizesweep": {"sizesweep", "--sizes", "100,1000", "--reps", "2"},
		"abtest": {"abtest", "--a-session", "PRAGMA cache_size=-2000", "--b-session", "PRAGMA cache_size=-64000",
			"--size", "1000", "--wisconsin", "9,12", "--reps", "6"},
		"speedup": {"speedup", "--size", "1000", "--parallelism", "1", "--page-sizes", "1KiB,4KiB", "--reps", "2"},
		"storage": {"storage", "--dir", filepath.Join(tmp, "storage-dir"), "--size", "4MiB", "--duration", "200ms"},
		"load":    {"load", "--db", "sqlite:" + filepath.Join(tmp, "load.db"), "--size", "100", "--relations", "tenktup1,onektup"},
		// pgbench's command line has no --out: its run directory comes
		// from the environment (below).
		"pgbench": {"pgbench", "-c", "2", "-t", "20", "-r", "sqlite:" + filepath.Join(tmp, "pgbench.db")},
	}
	if code, _, stderr := run("pgbench", "-i", "sqlite:"+filepath.Join(tmp, "pgbench.db")); code != 0 {
		t.Fatalf("pgbench -i: exit %d: %s", code, stderr)
	}
	os.MkdirAll(filepath.Join(tmp, "storage-dir"), 0o755)
	for _, name := range results.KindNames() {
		args, ok := cases[name]
		if !ok {
			// probe: registry_test.go's, covered there; clustersize needs
			// a cluster: TestClusterSize regenerates its files.
			if name != "probe" && name != "clustersize" {
				t.Errorf("%s: no case here: add one", name)
			}
			continue
		}
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(tmp, name)
			if name == "pgbench" {
				t.Setenv(envPgbenchOut, dir)
			} else {
				args = append(args, "--out", dir)
			}
			if code, _, stderr := run(args...); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			regenerates(t, dir, filepath.Join(tmp, name+"-copy"))
		})
	}
}

// regenerates copies the run directory dir to cp, deletes from the copy
// every file derived from its stored results, runs `dbgauge report` on
// the copy and expects every file back, byte for byte.
func regenerates(t *testing.T, dir, cp string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", dir, cp).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	s, err := results.ReadRun(cp)
	if err != nil {
		t.Fatal(err)
	}
	removeDerived(t, cp, s)
	if code, _, stderr := run("report", cp); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	sameTree(t, dir, cp)
}

// TestReportRegeneratesQuickstart does the same for a quickstart
// directory: each engine's run, the engines side by side and the engines
// page.
func TestReportRegeneratesQuickstart(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "qs")
	if code, _, stderr := run("quickstart", "--size", "1000", "--reps", "2", "--out", dir); code != 0 {
		t.Fatalf("quickstart: exit %d: %s", code, stderr)
	}
	cp := filepath.Join(tmp, "qs-copy")
	if out, err := exec.Command("cp", "-a", dir, cp).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	for _, f := range []string{sideBySideFile, "report.html"} {
		if err := os.Remove(filepath.Join(cp, f)); err != nil {
			t.Errorf("the quickstart did not write %s: %v", f, err)
		}
	}
	for _, eng := range []string{"sqlite", "duckdb"} {
		s, err := results.ReadRun(filepath.Join(cp, eng, "run"))
		if err != nil {
			t.Fatal(err)
		}
		removeDerived(t, s.Dir, s)
	}
	if code, _, stderr := run("report", cp); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	sameTree(t, dir, cp)
}

// removeDerived deletes from the run directory dir every file derived
// from its stored results s: the tables and diagrams, bench.txt and
// report.html.
func removeDerived(t *testing.T, dir string, s *results.Stored) {
	t.Helper()
	derived, _ := report.Files(s.Experiment, s.Results)
	gone := []string{results.BenchFile, "report.html"}
	for f := range derived {
		gone = append(gone, f)
	}
	for _, f := range gone {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Errorf("the run did not write %s: %v", f, err)
		}
	}
}

// sameTree fails for every file of want that got lacks or holds
// differently, and every file got has that want has not.
func sameTree(t *testing.T, want, got string) {
	t.Helper()
	seen := map[string]bool{}
	filepath.WalkDir(want, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(want, p)
		seen[rel] = true
		a, _ := os.ReadFile(p)
		b, err := os.ReadFile(filepath.Join(got, rel))
		switch {
		case err != nil:
			t.Errorf("%s: not regenerated: %v", rel, err)
		case !bytes.Equal(a, b):
			t.Errorf("%s: regenerated differently (%d bytes, the run wrote %d)", rel, len(b), len(a))
		}
		return nil
	})
	filepath.WalkDir(got, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if rel, _ := filepath.Rel(got, p); !seen[rel] {
				t.Errorf("%s: written by report but not by the run", rel)
			}
		}
		return nil
	})
}
