package htmlreport

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
)

// Pieces shared by the pages of the IDM and Gamma experiments (multiuser,
// sizesweep, abtest, speedup): a few ways of writing numbers (on top of
// num), the warnings every results.json can carry, and the report
// package's multi-part CSV split back into one table per part.

// msText is a time in milliseconds to three significant digits.
func msText(v float64) string { return num(v) + " ms" }

// pctText is a fraction as a whole-number percentage ("42%").
func pctText(f float64) string { return strconv.FormatFloat(100*f, 'f', 0, 64) + "%" }

// listText joins labels as a sentence does ("Q1, Q9 and Q12"), naming at
// most limit of them and counting the rest, so that a reading stays one
// line however many queries a run has.
func listText(labels []string, limit int) string {
	if len(labels) > limit {
		return strings.Join(labels[:limit], ", ") + fmt.Sprintf(" and %d more", len(labels)-limit)
	}
	if len(labels) <= 1 {
		return strings.Join(labels, "")
	}
	return strings.Join(labels[:len(labels)-1], ", ") + " and " + labels[len(labels)-1]
}

// countNoun is "1 query" or "3 queries".
func countNoun(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// runStateWarnings are what every experiment's results.json says about
// itself: a run that stopped (Complete false, with or without its error)
// and the experiment's own warnings.
func runStateWarnings(complete bool, errMsg string, own []string) []string {
	var w []string
	switch {
	case errMsg != "":
		w = append(w, "The run is incomplete: it stopped with the error \u201c"+firstLine(errMsg)+"\u201d; the numbers below cover what was measured before it.")
	case !complete:
		w = append(w, "The run is incomplete (results.json is not marked complete: it was interrupted or is still running); the numbers below cover what was measured.")
	}
	return append(w, own...)
}

// ledTables splits a CSV table whose first column names the part a row
// belongs to (sizesweep.csv: "times", "fit"...; speedup.csv:
// "parallelism", "memory"...) into one table per part, in the order the
// parts first appear, without that column. A row whose first cell is
// "table" is a new header for the rows after it (report.Table.CSV's
// convention); otherwise the first row is every part's header. Parts
// without a data row are left out.
func ledTables(t *report.Table) (names []string, parts map[string]*report.Table) {
	parts = map[string]*report.Table{}
	if t == nil || len(t.Rows) == 0 {
		return nil, parts
	}
	header := t.Rows[0]
	for _, row := range t.Rows[1:] {
		if len(row) == 0 {
			continue
		}
		if row[0] == "table" {
			header = row
			continue
		}
		p, ok := parts[row[0]]
		if !ok {
			p = &report.Table{Rows: [][]string{header[1:]}}
			parts[row[0]] = p
			names = append(names, row[0])
		}
		p.Rows = append(p.Rows, row[1:])
	}
	return names, parts
}

// firstLine is an error message's first line: an engine's advice and
// links after it belong in results.json, not in a one-line warning.
func firstLine(msg string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	return strings.TrimSpace(line)
}
