package cli

import (
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// TestDSBenchSummaryTypes: the terminal's summary of a sweep of two
// transaction types has the per-type table and names its files; one of a
// single type without statements (TPC-B) has neither.
func TestDSBenchSummaryTypes(t *testing.T) {
	r := &results.DSBenchResults{Scales: []results.ScaleResult{{Scale: 1, Transactions: 40, Types: []results.TypeFigures{
		{Name: "new_order", Count: 30, Percentiles: results.Percentiles{P99MS: 2.5}}, {Name: "payment", Count: 10},
	}}}}
	got := string(dsbenchSummary(r, "runs/x"))
	for _, want := range []string{"Per transaction type", "new_order", "payment", "75.0", "2.500", "per_type.txt, per_type.csv"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	r.Scales[0].Types = nil
	if got := string(dsbenchSummary(r, "runs/x")); strings.Contains(got, "per_type") || strings.Contains(got, "Per transaction type") {
		t.Errorf("summary of a sweep without types shows them:\n%s", got)
	}
}
