package htmlreport

import (
	"math"
	"slices"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// handView is a view of two engines over three queries, built by hand:
//
//	        a      b
//	Q1    1 ms   2 ms
//	Q2   10 ms   5 ms
//	Q3    3 ms   n/a
func handView() *engineView {
	ok := func(ms float64) engineCell { return engineCell{ok: true, ms: ms} }
	return &engineView{
		engines: []engineCol{{label: "a"}, {label: "b"}},
		rows: []engineRow{
			{label: "Q1", cells: []engineCell{ok(1), ok(2)}},
			{label: "Q2", cells: []engineCell{ok(10), ok(5)}},
			{label: "Q3", cells: []engineCell{ok(3), {text: "n/a"}}},
		},
	}
}

func TestEngineRelative(t *testing.T) {
	v := handView()
	both := []bool{true, true}
	for i, want := range [][]float64{{1, 2}, {2, 1}, {1, math.NaN()}} {
		got := engineRelative(v.rows[i], both)
		for j := range want {
			if !sameFloat(got[j], want[j]) {
				t.Errorf("%s: relative %v, want %v", v.rows[i].label, got, want)
			}
		}
	}
	// b alone: it is the fastest wherever it answered
	got := engineRelative(v.rows[1], []bool{false, true})
	if !math.IsNaN(got[0]) || got[1] != 1 {
		t.Errorf("Q2 with b alone: %v", got)
	}
}

func TestEngineScores(t *testing.T) {
	v := handView()
	for _, c := range []struct {
		name          string
		engines, rows []bool
		geo           []float64
		answered      []int
		common        int
	}{
		// Q3 is left out for both: b did not answer it.
		// a: Q1 (1+10)/(1+10) = 1, Q2 (10+10)/(5+10) = 4/3 -> sqrt(4/3)
		// b: Q1 (2+10)/(1+10) = 12/11, Q2 1 -> sqrt(12/11)
		{"all", []bool{true, true}, []bool{true, true, true}, []float64{math.Sqrt(4.0 / 3), math.Sqrt(12.0 / 11)}, []int{3, 2}, 2},
		// Q2 unticked: only Q1 counts
		{"Q1 and Q3", []bool{true, true}, []bool{true, false, true}, []float64{1, 12.0 / 11}, []int{2, 1}, 1},
		// a alone: every query it answered counts, each at x1
		{"a alone", []bool{true, false}, []bool{true, true, true}, []float64{1, math.NaN()}, []int{3, 0}, 3},
		{"no engine", []bool{false, false}, []bool{true, true, true}, []float64{math.NaN(), math.NaN()}, []int{0, 0}, 0},
		{"no query", []bool{true, true}, []bool{false, false, false}, []float64{math.NaN(), math.NaN()}, []int{0, 0}, 0},
	} {
		sc, common := engineScores(v, c.engines, c.rows)
		if common != c.common {
			t.Errorf("%s: %d common queries, want %d", c.name, common, c.common)
		}
		for j := range sc {
			if !sameFloat(sc[j].geo, c.geo[j]) || sc[j].answered != c.answered[j] {
				t.Errorf("%s: engine %s: geo %v answered %d, want %v and %d", c.name, v.engines[j].label, sc[j].geo, sc[j].answered, c.geo[j], c.answered[j])
			}
		}
	}
}

func TestEngineFormats(t *testing.T) {
	for _, c := range []struct {
		r           float64
		text, style string
	}{
		{1, "×1.00", "width:0.15em;background:hsl(120,60%,42%)"},
		{2.3456, "×2.35", "width:1.58em;background:hsl(76,60%,42%)"},
		{12.34, "×12.3", "width:4.00em;background:hsl(0,60%,42%)"},
		{123.4, "×123", "width:4.00em;background:hsl(0,60%,42%)"},
		{math.NaN(), "–", "display:none"},
	} {
		if got := engineRatioText(c.r); got != c.text {
			t.Errorf("engineRatioText(%v) = %q, want %q", c.r, got, c.text)
		}
		if got := engineBarStyle(c.r); got != c.style {
			t.Errorf("engineBarStyle(%v) = %q, want %q", c.r, got, c.style)
		}
	}
}

// sameFloat compares two results of arithmetic: equal to 1e-12, or both NaN.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b))
}

// Two runs of one engine and version get their directories' names; a
// query result one run lacks is a "not run" cell, out of the summary.
func TestEngineViewOfRuns(t *testing.T) {
	run := func(dir string, queries ...int) *Run {
		w := &results.WisconsinResults{Header: results.Header{Experiment: "wisconsin", Engine: "sqlite", EngineVersion: "3.54.1"}}
		for _, q := range queries {
			w.Queries = append(w.Queries, results.QueryResult{Query: q, Class: "c", Size: 1000, Organization: "heap", Destination: results.DestRelation,
				Status: results.StatusOK, ElapsedMS: stats.Summary{N: 1, Median: float64(q)}})
		}
		return &Run{Dir: dir, Experiment: "wisconsin", Results: w}
	}
	v, err := newEngineView([]*Run{run("/x/sync-on", 2, 1), run("/y/sync-off/run", 1)})
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{v.engines[0].label, v.engines[1].label}; !slices.Equal(got, []string{"sqlite 3.54.1 (sync-on)", "sqlite 3.54.1 (sync-off/run)"}) {
		t.Errorf("labels %q", got)
	}
	if len(v.rows) != 2 || v.rows[0].key.query != 1 || v.rows[1].label != "Q2 c (heap)" {
		t.Fatalf("rows %+v", v.rows)
	}
	if c := v.rows[1].cells[1]; c.ok || c.text != engineNotRun {
		t.Errorf("Q2 of the second run: %+v", c)
	}
	if _, common := engineScores(v, engineSelectAll(2), engineSelectAll(2)); common != 1 {
		t.Errorf("%d common queries, want 1 (Q2 was not run by both)", common)
	}
	if _, err := newEngineView([]*Run{{Dir: "d", Experiment: "dsbench"}}); err == nil {
		t.Error("a DSBENCH run made an engines view")
	}
}
