package report

import (
	"math"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// TestAdjustedTable: the per-tuple storing cost is derived as seed 003
// derives it, (Q2 - Q1) / (tuples Q2 stored - tuples Q1 stored) per size,
// averaged over the sizes; each query's time less that cost per stored
// tuple is set beside its time with only the count sent.
func TestAdjustedTable(t *testing.T) {
	q := func(n int64, num int, dest string, rows int64, median float64) results.QueryResult {
		return results.QueryResult{Query: num, Class: "c", Size: n, Organization: "heap", Destination: dest, Rows: rows, Status: results.StatusOK, Reps: 3, ElapsedMS: stats.Summary{Median: median}}
	}
	r := &results.WisconsinResults{Header: results.Header{Engine: "x"}, Sizes: []int64{1000, 10000}, Queries: []results.QueryResult{
		// N=1000: 90 more tuples cost 9 ms: 0.1 ms each; N=10000: 900 for 270 ms: 0.3 ms each.
		q(1000, 1, results.DestRelation, 10, 5), q(1000, 2, results.DestRelation, 100, 14), q(1000, 2, results.DestCount, 100, 4),
		q(10000, 1, results.DestRelation, 100, 50), q(10000, 2, results.DestRelation, 1000, 320),
	}}
	c, ok := paperStoringCost(r)
	if !ok || math.Abs(c.PerSize[1000]-0.1) > 1e-9 || math.Abs(c.PerSize[10000]-0.3) > 1e-9 || math.Abs(c.MS-0.2) > 1e-9 {
		t.Fatalf("storing cost %+v: want 0.1 and 0.3 ms per tuple, 0.2 on average", c)
	}
	tb := AdjustedTable(r)
	// Q2 at N=1000: 14 - 0.2 x 100 = -6 adjusted; counted 4; storing 10 ms, 100 us per tuple; (-6 - 4) / 4 = -250 %.
	want := []string{"1000", "2", "c", "heap", "100", "14.0", "-6.00", "4.00", "10.0", "100.000", "-250.0%"}
	if got := tb.Rows[2]; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("row of Q2 at N=1000: %v, want %v", got, want)
	}
	if !strings.Contains(strings.Join(tb.Notes, " "), "200.000 us") {
		t.Errorf("notes %v: want the mean cost of 200 us per tuple", tb.Notes)
	}
}
