package report

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/dbgauge/dbgauge/internal/results"
)

// noneKept is the fixture qac run as a busy machine leaves it: the
// protocol's checks dropped every QE of every Q@C, so no Q@C has an
// estimate over kept QEs; the estimates over every QE that ran remain.
func noneKept(t *testing.T) *results.QACResults {
	t.Helper()
	s, err := results.ReadRun(filepath.Join("htmlreport/testdata/runs", "qac"))
	if err != nil {
		t.Fatal(err)
	}
	r := *s.Results.(*results.QACResults)
	r.QaCs = slices.Clone(r.QaCs)
	for i := range r.QaCs {
		q := &r.QaCs[i]
		q.Retained, q.Kept, q.DropReasons = false, 0, []string{"too few QEs left"}
		q.Measured, q.Computed, q.Fine = results.Estimate{}, results.Estimate{}, results.Estimate{}
		if q.AllMeasured.N == 0 {
			t.Fatalf("fixture cardinality %d has no QE that ran", q.Cardinality)
		}
	}
	return &r
}

// TestQACNoneKept: when the protocol drops every execution (rightly, on a
// busy machine) the run still has its diagram, of every QE that ran and
// titled as not the protocol's result, and qac.txt says so; with kept
// executions the diagram is the protocol's and says nothing of the kind.
func TestQACNoneKept(t *testing.T) {
	var title string
	chartBuilt = func(name string, _, _ vg.Length, f *figure) { title = f.plots[0][0].Title.Text }
	defer func() { chartBuilt = nil }()

	r := noneKept(t)
	files, err := Files("qac", r)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"qac.svg", "qac.png", "qac.txt", "qac.csv"} {
		if len(files[f]) == 0 {
			t.Errorf("%s missing when no execution was kept", f)
		}
	}
	if !strings.Contains(title, "no execution kept by the protocol") {
		t.Errorf("chart title %q does not say that nothing was kept", title)
	}
	if !strings.Contains(string(files["qac.txt"]), qacNoneKeptNote) {
		t.Errorf("qac.txt does not say that nothing was kept:\n%s", files["qac.txt"])
	}

	s, err := results.ReadRun(filepath.Join("htmlreport/testdata/runs", "qac"))
	if err != nil {
		t.Fatal(err)
	}
	files, err = Files("qac", s.Results)
	if err != nil {
		t.Fatal(err)
	}
	if len(files["qac.svg"]) == 0 || strings.Contains(title, "no execution kept") || strings.Contains(string(files["qac.txt"]), qacNoneKeptNote) {
		t.Errorf("a run with kept executions: chart %d bytes titled %q; qac.txt:\n%s", len(files["qac.svg"]), title, files["qac.txt"])
	}
}
