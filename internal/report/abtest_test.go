package report

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

func abFixture(t *testing.T) *results.ABTestResults {
	t.Helper()
	c, err := stats.CompareAB([]float64{200, 200, 200, 200, 200, 200}, []float64{100, 100, 100, 100, 100, 100}, 0.95, 100, 1)
	if err != nil {
		t.Fatal(err)
	}
	return &results.ABTestResults{
		Header: results.Header{Experiment: "abtest"}, Workload: "wisconsin", Size: 1000, Reps: 6, Caches: []string{"warm", "cold"}, Destination: "client", Level: 0.95,
		A: results.ABVariant{Name: "A", DB: "postgres://u@h/db", Engine: "postgres", EngineVersion: "16", Session: []string{"SET w = 0"}},
		B: results.ABVariant{Name: "B", DB: "postgres://u@h/db", Engine: "postgres", EngineVersion: "16", Session: []string{"SET w = 2"}},
		Queries: []results.ABQuery{
			{Label: "Q9", Num: 9, Class: "joinAselB", Organization: "heap", ExpectedRows: 100, Runs: []results.ABCacheRun{
				{Cache: "warm", Status: "ok", Rows: 100, AMS: []float64{200, 200, 200, 200, 200, 200}, BMS: []float64{100, 100, 100, 100, 100, 100}, Comparison: &c, RateAPerS: 5, RateBPerS: 10},
				{Cache: "cold", Status: "error", Reason: "pair 1 on A: boom"},
			}},
		},
	}
}

// The table: medians, difference, factor 2, rates 5 and 10 per second,
// improvement 100 %, the interval [2, 2], p = 2/64 and "B faster"; the cold run
// that failed shows its status and its reason as a note.
func TestABTestTable(t *testing.T) {
	r := abFixture(t)
	txt := string(ABTestText(r))
	for _, s := range []string{"A: postgres 16 with SET w = 0", "B: postgres 16 with SET w = 2", "[2.00, 2.00]", "B faster", "Q9 cold: error: pair 1 on A: boom",
		"warm: B faster on 1 (Q9), A faster on 0, no significant difference on 0 of 1 queries", "cold: B faster on 0"} {
		if !strings.Contains(txt, s) {
			t.Errorf("text lacks %q:\n%s", s, txt)
		}
	}
	rows, err := csv.NewReader(bytes.NewReader(ABTestCSV(r))).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("csv: %v %d rows", err, len(rows))
	}
	get := func(col string) string {
		for i, h := range rows[0] {
			if h == col {
				return rows[1][i]
			}
		}
		t.Fatalf("no column %s in %v", col, rows[0])
		return ""
	}
	for col, want := range map[string]string{"warm_a_ms": "200", "warm_b_ms": "100", "warm_diff_ms": "100", "warm_factor": "2.00",
		"warm_rate_a_per_s": "5.00", "warm_rate_b_per_s": "10.0", "warm_improvement_pct": "100", "warm_ratio_ci_low": "2.000",
		"warm_verdict": "B faster", "warm_pairs": "6", "warm_p": "0.0312", "cold_status": "error", "cold_factor": "-"} {
		if got := get(col); got != want {
			t.Errorf("%s = %q, want %q", col, got, want)
		}
	}
	charts, err := ABTestChart(r)
	if err != nil || len(charts["abtest.svg"]) == 0 || len(charts["abtest.png"]) == 0 {
		t.Errorf("chart: %v, %d files", err, len(charts))
	}
}
