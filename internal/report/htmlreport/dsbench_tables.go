package htmlreport

import (
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// dsbenchResultsTable is seed 001's Table 1 as results.csv holds it (the
// seed's column descriptions as header), its numbers rounded for reading:
// the CSV keeps full precision for programs.
func dsbenchResultsTable(r *results.DSBenchResults) *report.Table {
	t := csvTable("", report.DSBenchCSVTable(r))
	if t == nil {
		return nil
	}
	t.Title = []string{"One row per scale: the columns of seed 001 Table 1 (results.csv holds them at full precision)"}
	for _, row := range t.Rows[1:] {
		for i, c := range row {
			row[i] = roundCell(c)
		}
	}
	return t
}

// roundCell writes a fractional number of a CSV cell as num does; integers
// and text stay as they are.
func roundCell(c string) string {
	if !strings.ContainsAny(c, ".eE") {
		return c
	}
	v, err := strconv.ParseFloat(c, 64)
	if err != nil {
		return c
	}
	return num(v)
}

// dsbenchRangesTable lists the four ranges of seed 001 §5.1 found in the
// measured curve; nil when none was named.
func dsbenchRangesTable(r *results.DSBenchResults) *report.Table {
	if len(r.Ranges) == 0 {
		return nil
	}
	t := &report.Table{Rows: [][]string{{"range", "from scale", "to scale", "why"}}}
	for _, g := range r.Ranges {
		t.Rows = append(t.Rows, []string{g.Name, strconv.FormatInt(g.From, 10), strconv.FormatInt(g.To, 10), g.Reason})
	}
	return t
}
