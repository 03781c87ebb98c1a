// Package htmlreport renders run directories as self-contained HTML pages:
// the report of one run, the comparison of several, the multi-engine view
// of Wisconsin runs. Every page is built from run directories alone (the
// manifest and results.json), carries its diagrams as inline SVG, and
// fetches nothing: no scripts, fonts or styles from anywhere.
package htmlreport

import (
	"bytes"
	"html/template"

	"github.com/dbgauge/dbgauge/internal/report"
)

// Doc is one HTML page, in reading order: the headline numbers first,
// then warnings, then diagrams and tables, the protocol paragraph and the
// manifest.
type Doc struct {
	Title    string
	Subtitle string
	// Summary are the headline numbers (DSI, tps per scale, per-query
	// times, speedups), shown first.
	Summary []Headline
	// Warnings are what a reader must know before trusting the numbers:
	// buffer ratio below 5, consistency failures, dropped executions,
	// deviations, an incomplete run.
	Warnings []string
	Sections []Section
	// Protocol is the timing protocol's reporting paragraph, if it ran.
	Protocol string
	// Manifest are the rows of the "what, how, on what" table.
	Manifest [][2]string
	// Script is an optional small inline script (the multi-engine view's
	// selectors); nothing is ever fetched.
	Script template.JS
}

// Headline is one number of the summary.
type Headline struct {
	Label string
	Value string
	Note  string // e.g. the interval or the unit's meaning
}

// Section is one diagram (with its one-line reading) or table, or a piece
// of HTML built by the page's author (the multi-engine view).
type Section struct {
	ID      string
	Title   string
	Reading string        // one line: what the diagram shows
	SVG     template.HTML // inline SVG, from InlineSVG or built here
	Table   *report.Table
	HTML    template.HTML
}

// Render writes d as one self-contained HTML page.
func Render(d *Doc) ([]byte, error) {
	var b bytes.Buffer
	if err := page.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
