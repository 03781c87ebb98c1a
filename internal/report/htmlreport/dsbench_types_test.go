package htmlreport

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// TestDSBenchTypesSection: a sweep with per-type figures has a section
// holding its types and statements with their percentiles; one without
// (the stored TPC-B sweep) has none.
func TestDSBenchTypesSection(t *testing.T) {
	dir := filepath.Join("testdata", "runs", "dsbench")
	for _, sec := range docOf(t, dir).Sections {
		if sec.ID == "per_type" {
			t.Fatal("a sweep without types has a per-type section")
		}
	}
	var res results.DSBenchResults
	readResults(t, dir, &res)
	res.Scales[0].Types = []results.TypeFigures{
		{Name: "order", Count: 30, Failed: 2, Errors: map[string]int64{"deadlock": 2}, Retries: 2, Percentiles: results.Percentiles{P50MS: 1.25, MaxMS: 7.5},
			Statements: []results.StatementFigures{{Name: "select_stock", Count: 32, Percentiles: results.Percentiles{P99MS: 0.875}}}},
		{Name: "audit", Count: 10},
	}
	d := docOf(t, withResults(t, dir, res))
	page := checkPage(t, d)
	var found bool
	for _, sec := range d.Sections {
		if sec.ID != "per_type" {
			continue
		}
		found = true
		var cells []string
		for _, r := range sec.Table.Rows {
			cells = append(cells, strings.Join(r, " "))
		}
		all := strings.Join(cells, "\n")
		for _, want := range []string{"order", "audit", "select_stock", "deadlock:2", "1.250", "7.500", "0.875"} {
			if !strings.Contains(all, want) {
				t.Errorf("per-type table lacks %q:\n%s", want, all)
			}
		}
	}
	if !found || !strings.Contains(page, "select_stock") {
		t.Errorf("page without the per-type section (found %v)", found)
	}
}
