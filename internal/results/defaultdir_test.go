package results_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/results"
)

// DefaultDir gives each run started in the same second a directory of
// its own, and release leaves nothing of a run that wrote nothing (nor
// the directory of runs it made), but a run that wrote stays.
func TestDefaultDirDistinctInOneSecond(t *testing.T) {
	base := filepath.Join(t.TempDir(), "runs")
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	a, releaseA, err := results.DefaultDir(base, "wisconsin", now)
	if err != nil {
		t.Fatal(err)
	}
	b, releaseB, err := results.DefaultDir(base, "wisconsin", now.Add(500*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(base, "20250102T030405Z-wisconsin"); a != want || b != want+"-2" {
		t.Errorf("directories %s and %s, want %s and %s-2", a, b, want, want)
	}
	if err := os.WriteFile(filepath.Join(b, "results.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	releaseA()
	releaseB()
	if _, err := os.Stat(a); err == nil {
		t.Errorf("%s: an empty reserved directory was kept", a)
	}
	if _, err := os.Stat(filepath.Join(b, "results.json")); err != nil {
		t.Errorf("a written run was removed: %v", err)
	}
	base2 := filepath.Join(t.TempDir(), "runs")
	_, release, err := results.DefaultDir(base2, "dsbench", now)
	if err != nil {
		t.Fatal(err)
	}
	release()
	if _, err := os.Stat(base2); err == nil {
		t.Errorf("%s: the directory of runs made for a run that wrote nothing was kept", base2)
	}
}
