package htmlreport

import (
	"slices"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// TestManifestRowsInstrumentation: the report's manifest table says what
// the engine recorded of each session the manifest names, one row each.
func TestManifestRowsInstrumentation(t *testing.T) {
	m := &results.Manifest{Experiment: "wisconsin", Instrumentation: []results.Instrumentation{
		{Session: results.NewSession, Settings: map[string]string{"pg_stat_statements.track": "none", "shared_preload_libraries": "pg_stat_statements"}},
		{Session: "the engine-time session", Settings: map[string]string{"pg_stat_statements.track": "top"}},
	}}
	rows := ManifestRows(m)
	for _, want := range [][2]string{
		{"instrumentation of " + results.NewSession, "pg_stat_statements.track = none; shared_preload_libraries = pg_stat_statements"},
		{"instrumentation of the engine-time session", "pg_stat_statements.track = top"},
	} {
		if !slices.Contains(rows, want) {
			t.Errorf("manifest rows %q: no row %q", rows, want)
		}
	}
}
