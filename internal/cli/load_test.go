package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// A `dbgauge load` run has a manifest and a report like every run:
// `list` shows it complete with its engine and headline, and `report`
// regenerates it.
func TestLoadRunIsARun(t *testing.T) {
	t.Chdir(t.TempDir())
	code, stdout, stderr := run("load", "--db", "sqlite:load.db", "--size", "100,200", "--relations", "onektup,tenktup1")
	if code != 0 {
		t.Fatalf("load: exit %d: %s", code, stderr)
	}
	if first, _, _ := strings.Cut(stdout, "\n"); !strings.HasPrefix(first, "onektup_n100\t10 rows\t") {
		t.Errorf("the first line is not the first load (the bench/ scripts read it): %q", first)
	}
	dirs, _ := filepath.Glob(filepath.Join(defaultRunsDir, "*-load"))
	if len(dirs) != 1 {
		t.Fatalf("run directories %v", dirs)
	}
	dir := dirs[0]
	for _, f := range []string{results.ManifestFile, results.ResultsFile, results.JournalFile, "report.html", results.BenchFile, "loads.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the load run lacks %s", f)
		}
	}
	entries, err := results.List(defaultRunsDir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("list: %v, %d entries", err, len(entries))
	}
	e := entries[0]
	if e.Status() != "complete" || e.Experiment != "load" || e.Engine != "sqlite" || e.Headline.Value == nil || e.Started.IsZero() {
		t.Errorf("listed as %s: %+v", e.Status(), e)
	}
	code, _, stderr = run("list")
	if code != 0 || strings.Contains(stderr, "failed") {
		t.Errorf("list: exit %d: %s", code, stderr)
	}
	os.Remove(filepath.Join(dir, "report.html"))
	if code, _, stderr := run("report", dir); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || !strings.Contains(string(page), "tenktup1_n200") {
		t.Errorf("report.html of the load run: %v, %d bytes, without tenktup1_n200", err, len(page))
	}
}
