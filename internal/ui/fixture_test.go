package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Stored runs of the report's tests, copied into a directory of runs
// under the names dbgauge gives run directories.
const (
	runA   = "20250101T000001Z-wisconsin"
	runB   = "20250101T000002Z-wisconsin"
	runDS  = "20250101T000003Z-dsbench"
	stored = "../report/htmlreport/testdata/runs"
)

// runsDir copies the two Wisconsin runs and the dsbench run into a new
// directory of runs. The dsbench run is moved to 2026-11-20 (the others
// started on 2026-11-24) so that the date filters have something to
// separate; runA gets a report.html.
func runsDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, from := range map[string]string{runA: "wisconsin", runB: "wisconsin2", runDS: "dsbench"} {
		copyDir(t, filepath.Join(stored, from), filepath.Join(dir, name))
	}
	m := filepath.Join(dir, runDS, "manifest.json")
	b, err := os.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	moved := strings.Replace(string(b), `"started": "2026-11-24`, `"started": "2026-11-20`, 1)
	if moved == string(b) {
		t.Fatalf("%s: no start on 2026-11-24 to move", m)
	}
	write(t, m, moved)
	write(t, filepath.Join(dir, runA, "report.html"), "<html><body>the report of run A</body></html>")
	return dir
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
