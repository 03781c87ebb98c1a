package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"

	"github.com/dbgauge/dbgauge/internal/stats"
)

func result(engine string, qs ...results.QueryResult) *results.WisconsinResults {
	return &results.WisconsinResults{Header: results.Header{Experiment: "wisconsin", Engine: engine}, Sizes: []int64{10000}, Queries: qs}
}

func TestCell(t *testing.T) {
	cases := []struct {
		q    *results.QueryResult
		want string
	}{
		{nil, "-"},
		{&results.QueryResult{Status: "ok", ElapsedMS: stats.Summary{Median: 12.345}}, "12.3"},
		{&results.QueryResult{Status: "ok", ElapsedMS: stats.Summary{Median: 0.1234}}, "0.123"},
		{&results.QueryResult{Status: "not_applicable"}, "n/a"},
		{&results.QueryResult{Status: "mismatch"}, "MISMATCH"},
		{&results.QueryResult{Status: "error"}, "ERROR"},
		{&results.QueryResult{Status: "error", TimedOut: true, LimitMS: 60000}, "> 1m0s"},
	}
	for _, c := range cases {
		if got := Cell(c.q); got != c.want {
			t.Errorf("Cell(%+v) = %q, want %q", c.q, got, c.want)
		}
	}
}

func TestPaperTablesPutEnginesInRows(t *testing.T) {
	a := result("sqlite",
		results.QueryResult{Query: 1, Size: 10000, Organization: "heap", Destination: "relation", Status: "ok", ElapsedMS: stats.Summary{Median: 5}},
		results.QueryResult{Query: 2, Size: 10000, Organization: "heap", Destination: "relation", Status: "mismatch"})
	b := result("duckdb",
		results.QueryResult{Query: 1, Size: 10000, Organization: "heap", Destination: "relation", Status: "ok", ElapsedMS: stats.Summary{Median: 7}})
	tables := PaperTables([]*results.WisconsinResults{a, b}, 10000)
	if len(tables) != 1 || !strings.HasPrefix(tables[0].Title[0], "Table 1.") {
		t.Fatalf("want only Table 1, got %d tables", len(tables))
	}
	rows := tables[0].Rows
	want := [][]string{{"engine", "destination", "Q1 1%", "Q2 10%"}, {"sqlite", "relation", "5.00", "MISMATCH"}, {"duckdb", "relation", "7.00", "-"}}
	for i := range want {
		if strings.Join(rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d = %v, want %v", i, rows[i], want[i])
		}
	}
	var buf bytes.Buffer
	tables[0].Text(&buf)
	if !strings.Contains(buf.String(), "sqlite  relation      5.00  MISMATCH") {
		t.Errorf("text rendering:\n%s", buf.String())
	}
}
