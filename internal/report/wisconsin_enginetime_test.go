package report

import (
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// A query whose engine time came out longer than the client's (MariaDB
// times a statement until its reply is sent): the time outside the engine
// is no measured negative figure but the clocks' overlap, shown as ~0 with
// a note; a positive one is shown as measured.
func TestEngineTimeTableOverlap(t *testing.T) {
	q := func(n int, client, engine float64) results.QueryResult {
		return results.QueryResult{Query: n, Size: 1000, Class: "selection", Organization: "heap", Destination: "relation", Status: results.StatusOK, Reps: 5,
			ElapsedMS: stats.Summary{Median: client},
			Engine: &results.EngineTimes{TotalMS: stats.Summary{Median: engine}, OutsideMS: stats.Summary{Median: client - engine},
				OutsideShare: (client - engine) / client}}
	}
	r := &results.WisconsinResults{Header: results.Header{Engine: "mariadb", EngineVersion: "11.8"},
		EngineTime: &results.EngineTiming{Source: "performance_schema"},
		Queries:    []results.QueryResult{q(1, 2, 1.5), q(2, 4, 4.06)}}
	tab := EngineTimeTable(r)
	head := tab.Rows[0]
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	if got := tab.Rows[1][col["outside_ms"]] + " " + tab.Rows[1][col["outside_share"]]; got != "0.500 25.0%" {
		t.Errorf("Q1 outside %q, want the measured 0.500 25.0%%", got)
	}
	if got := tab.Rows[2][col["outside_ms"]] + " " + tab.Rows[2][col["outside_share"]]; got != "~0 ~0%" {
		t.Errorf("Q2 outside %q, want ~0 ~0%% (the engine's 4.06 ms over the client's 4 ms)", got)
	}
	notes := strings.Join(tab.Notes, "\n")
	if !strings.Contains(notes, "~0: the engine's own time ended after the client's (by up to 0.060 ms)") {
		t.Errorf("no note on the overlap:\n%s", notes)
	}
	var b strings.Builder
	tab.Text(&b)
	if strings.Contains(b.String(), "-0.0") {
		t.Errorf("a negative time outside the engine is shown:\n%s", b.String())
	}
}
