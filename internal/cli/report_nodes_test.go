package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// TestReportRebuildsDistributedRun: `dbgauge report` on a stored
// distributed sweep (the hand-written fixture of the report's tests: 3
// agents, beta lost in scale 2 cycle 2) writes, from manifest.json and
// results.json alone, the node diagram, the per-node tables and the page
// with its Load nodes section, the same bytes when run again on a copy.
func TestReportRebuildsDistributedRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nodes")
	fixture := filepath.Join("..", "report", "htmlreport", "testdata", "runs", "dsbench_nodes")
	if out, err := exec.Command("cp", "-a", fixture, dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	if code, _, stderr := run("report", dir); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	s, err := results.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	derived, err := report.Files(s.Experiment, s.Results)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"node.svg", "node.png", "nodes.csv", "agents.csv", "node_cycles.csv", "results.txt"} {
		if _, ok := derived[f]; !ok {
			t.Errorf("%s is not among the derived files", f)
		}
	}
	for f, want := range derived {
		if got, err := os.ReadFile(filepath.Join(dir, f)); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: not written as report.Files renders it (%v)", f, err)
		}
	}
	txt, _ := os.ReadFile(filepath.Join(dir, "results.txt"))
	page, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if !strings.Contains(string(txt), "\n      2     2   beta         290          2900       2\n") {
		t.Errorf("results.txt lacks beta's rate at scale 2:\n%s", txt)
	}
	for _, w := range []string{`<h2 id="nodes">Load nodes</h2>`, "scale 2 cycle 2: lost after 10 s", `<h2 id="node">Rate per node</h2>`} {
		if !strings.Contains(string(page), w) {
			t.Errorf("report.html lacks %q", w)
		}
	}
	cp := filepath.Join(t.TempDir(), "again")
	if out, err := exec.Command("cp", "-a", dir, cp).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	removeDerived(t, cp, s)
	if code, _, stderr := run("report", cp); code != 0 {
		t.Fatalf("report again: exit %d: %s", code, stderr)
	}
	sameTree(t, dir, cp)
}
