// Package report renders stored results: text tables, CSV, charts and the
// HTML report. It reads results; it never measures or touches an engine.
package report

import (
	"bytes"
	"encoding/csv"
	"io"
	"strings"
	"unicode/utf8"
)

// Table is a titled grid of cells; the first row is the header.
type Table struct {
	Title []string // title lines, as the seed papers print them
	Rows  [][]string
	Notes []string
}

// Text renders t with columns padded; numbers are right-aligned.
func (t *Table) Text(out io.Writer) {
	widths := map[int]int{}
	for _, r := range t.Rows {
		for i, c := range r {
			if n := utf8.RuneCountInString(c); n > widths[i] {
				widths[i] = n
			}
		}
	}
	var b strings.Builder
	for _, l := range t.Title {
		b.WriteString(l + "\n")
	}
	for ri, r := range t.Rows {
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if i > 0 && Numeric(c) {
				b.WriteString(pad + c)
			} else if i < len(r)-1 {
				b.WriteString(c + pad)
			} else {
				b.WriteString(c)
			}
		}
		b.WriteString("\n")
		if ri == 0 {
			total := 0
			for i := range r {
				total += widths[i] + 2
			}
			b.WriteString(strings.Repeat("-", total-2) + "\n")
		}
	}
	for _, n := range t.Notes {
		b.WriteString(n + "\n")
	}
	b.WriteString("\n")
	io.WriteString(out, b.String())
}

// CSV writes the rows (header first) as CSV, prefixed with extra leading
// columns (e.g. the table's name) when given.
func (t *Table) CSV(w *csv.Writer, lead ...string) {
	for _, r := range t.Led(lead...) {
		w.Write(r)
	}
}

// Led is the rows (header first) prefixed with extra leading columns, as
// CSV writes them: the header's lead cells say "table", the others lead.
func (t *Table) Led(lead ...string) [][]string {
	out := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		row := append([]string{}, lead...)
		if i == 0 && len(lead) > 0 {
			row = make([]string, len(lead))
			for j := range row {
				row[j] = "table"
			}
		}
		out[i] = append(row, r...)
	}
	return out
}

// Numeric says whether a cell holds a number (right-aligned in text and HTML).
func Numeric(s string) bool {
	if s == "" {
		return false
	}
	if s == "n/a" || s == "-" {
		return true
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789.-+e%x", c) {
			return false
		}
	}
	return true
}

// TextBytes is Text into a new buffer.
func (t *Table) TextBytes() []byte {
	var b bytes.Buffer
	t.Text(&b)
	return b.Bytes()
}

// CSVBytes is CSV (header first, no notes) into a new buffer.
func (t *Table) CSVBytes() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	t.CSV(w)
	w.Flush()
	return b.Bytes()
}
