package report

import (
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// TestDSBenchFaults: a scale whose cycle 2 had a restart shows it in
// results.txt (one note line), and the faults table lists that cycle alone.
func TestDSBenchFaults(t *testing.T) {
	r := &results.DSBenchResults{Cycles: 3, Scales: []results.ScaleResult{
		{Scale: 1, Cycles: []float64{10, 10, 10}, Consistent: true},
		{Scale: 2, Cycles: []float64{10, 8, 10}, Consistent: true, Failed: 30,
			Errors:     map[string]int64{"conflict": 3, "connection_refused": 12, "server_unavailable": 15},
			Reconnects: 27, InDoubt: 1,
			Faults: []results.CycleFaults{{Cycle: 2, Errors: map[string]int64{"connection_refused": 12, "server_unavailable": 15},
				Reconnects: 27, InDoubt: 1, CheckErrors: map[string]int64{"connection_lost": 1}}}},
	}}
	want := "# scale 2: faults in 1 of 3 cycles; failed trials by class: conflict 3, connection_refused 12, server_unavailable 15; 27 reconnect attempts; 1 commits in doubt (cycles 2)\n"
	if txt := string(DSBenchText(r)); !strings.Contains(txt, want) || strings.Contains(txt, "# scale 1: faults") {
		t.Errorf("results.txt lacks %q or names scale 1:\n%s", want, txt)
	}
	tab := DSBenchFaultsTable(r)
	if tab == nil || len(tab.Rows) != 2 {
		t.Fatalf("faults table %+v, want a header and one row", tab)
	}
	if got, want := strings.Join(tab.Rows[1], " | "), "2 | 2 | connection_refused 12, server_unavailable 15 | 27 | 1 | connection_lost 1"; got != want {
		t.Errorf("row %q, want %q", got, want)
	}
	r.Scales[1].Faults = nil
	if DSBenchFaultsTable(r) != nil {
		t.Errorf("a sweep without faults has a faults table")
	}
}
