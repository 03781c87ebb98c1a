package htmlreport

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"path/filepath"
	"strconv"
	"strings"
)

// The markup of the engines view, rendered with every engine and query
// selected, so that the page reads the same with scripts off. The script
// finds its way by ids (engines-*) and data- attributes, and its data in
// the JSON block; the page's stylesheet belongs to page.go, so what this
// view needs beyond it is in style attributes.

// engineRatioText writes a relative time as ClickBench does: ×1.00, ×2.35.
// enginesScript's ratioText must write the same.
func engineRatioText(r float64) string {
	switch {
	case math.IsNaN(r):
		return "–"
	case r < 10:
		return "×" + strconv.FormatFloat(r, 'f', 2, 64)
	case r < 100:
		return "×" + strconv.FormatFloat(r, 'f', 1, 64)
	}
	return "×" + strconv.FormatFloat(r, 'f', 0, 64)
}

// engineBarStyle is the coloured bar beside a relative time: its length
// grows with log10 of the ratio up to ×10, its colour goes from green at
// ×1 through yellow at about ×3 to red at ×10 and beyond. enginesScript's
// paint must compute the same.
func engineBarStyle(r float64) string {
	if math.IsNaN(r) || r < 1 {
		return "display:none"
	}
	l := math.Log10(r)
	width := 0.15 + 3.85*math.Min(1, l)
	hue := math.Round(120 * math.Max(0, 1-l))
	return fmt.Sprintf("width:%sem;background:hsl(%s,60%%,42%%)", strconv.FormatFloat(width, 'f', 2, 64), strconv.FormatFloat(hue, 'f', 0, 64))
}

// engineData is what the script needs: the engines' labels and, per row
// of the detail table (data-row), each engine's median in ms or null.
type engineData struct {
	ShiftMS float64      `json:"shift_ms"`
	Engines []string     `json:"engines"`
	Rows    [][]*float64 `json:"rows"`
}

// summaryHTML is the first part of the view: the selectors (shown by the
// script only: without it they could do nothing), the summary table
// sorted by the geometric mean, what it is computed over, and the data.
func (v *engineView) summaryHTML() (template.HTML, error) {
	engines, rows := engineSelectAll(len(v.engines)), engineSelectAll(len(v.rows))
	sc, common := engineScores(v, engines, rows)
	var b strings.Builder
	b.WriteString(`<div id="engines-view">`)
	b.WriteString(`<div id="engines-controls" class="noprint" hidden style="margin:.5em 0">Engines: `)
	for j, e := range v.engines {
		fmt.Fprintf(&b, `<label style="margin-right:1em"><input type="checkbox" class="engines-e" data-engine="%d" checked> %s</label>`, j, esc(e.label))
	}
	b.WriteString(`<br>Queries: <button type="button" id="engines-all">all</button> <button type="button" id="engines-none">none</button> <span class="note">or tick and untick them in the first column of the table below; the relative times and the geometric means follow.</span></div>`)
	b.WriteString(`<div class="tablewrap"><table><thead><tr><th>engine</th><th>relative time (geometric mean)</th><th>queries answered</th></tr></thead><tbody id="engines-summary">`)
	for _, j := range engineOrder(sc) {
		fmt.Fprintf(&b, `<tr data-engine="%d"><td>%s</td><td class="num" style="white-space:nowrap"><span class="rel" data-geo="%s">%s</span> <span class="bar" style="%s"></span></td><td class="num"><span class="ans">%d of %d</span></td></tr>`,
			j, esc(v.engines[j].label), jsNum(sc[j].geo), engineRatioText(sc[j].geo), engineBarStyle(sc[j].geo), sc[j].answered, len(v.rows))
	}
	b.WriteString(`</tbody></table></div>`)
	shift := strconv.FormatFloat(engineShiftMS, 'g', -1, 64)
	fmt.Fprintf(&b, `<p class="note">The table below gives, per query, each engine's median time relative to the fastest selected engine's (×1.00 is the fastest) and the median itself. The summary above is the geometric mean, over the <span id="engines-n">%d</span> queries that every selected engine answered with the expected number of rows, of (median + %s ms) / (fastest median + %s ms): ClickBench's rule, whose constant keeps queries of a few milliseconds, where a small absolute difference makes a large ratio, from outweighing the long ones. A query that one of the selected engines did not answer (not applicable, wrong cardinality, error, timeout, not run) is left out for all of them; its row says why. Times are medians of the elapsed time over each run's repetitions.</p>`,
		common, shift, shift)
	data, err := v.data()
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, `<script type="application/json" id="engines-data">%s</script></div>`, data)
	return template.HTML(b.String()), nil
}

// detailHTML is the second part: one row per query result, one column per
// engine, each cell the relative time, its bar and the median; a cell
// without a time says why.
func (v *engineView) detailHTML() template.HTML {
	engines := engineSelectAll(len(v.engines))
	var b strings.Builder
	b.WriteString(`<div class="tablewrap"><table id="engines-detail"><thead><tr><th>query (organisation)</th>`)
	for j, e := range v.engines {
		fmt.Fprintf(&b, `<th data-engine="%d">%s</th>`, j, esc(e.label))
	}
	b.WriteString(`</tr></thead><tbody>`)
	size := int64(-1)
	for i, row := range v.rows {
		if v.severalSizes && row.key.size != size {
			size = row.key.size
			fmt.Fprintf(&b, `<tr><th colspan="%d">N = %d</th></tr>`, len(v.engines)+1, size)
		}
		fmt.Fprintf(&b, `<tr data-row="%d"><td><label><input type="checkbox" class="engines-q noprint" data-row="%d" checked hidden> %s</label></td>`, i, i, esc(row.label))
		rel := engineRelative(row, engines)
		for j, c := range row.cells {
			if !c.ok {
				fmt.Fprintf(&b, `<td data-engine="%d" class="num" style="color:#777" title="%s">%s</td>`, j, esc(c.title), esc(c.text))
				continue
			}
			fmt.Fprintf(&b, `<td data-engine="%d" data-ms="%s" class="num" style="white-space:nowrap" title="%s"><span class="rel">%s</span> <span class="bar" style="%s"></span> <span style="color:#555">%s ms</span></td>`,
				j, jsNum(c.ms), esc(c.title), engineRatioText(rel[j]), engineBarStyle(rel[j]), num(c.ms))
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table></div>`)
	return template.HTML(b.String())
}

// data is the JSON block of the script's data. encoding/json escapes <, >
// and &, so nothing in it can close the script element.
func (v *engineView) data() (string, error) {
	d := engineData{ShiftMS: engineShiftMS, Rows: [][]*float64{}}
	for _, e := range v.engines {
		d.Engines = append(d.Engines, e.label)
	}
	for _, row := range v.rows {
		ms := make([]*float64, len(row.cells))
		for j, c := range row.cells {
			if c.ok {
				ms[j] = &c.ms
			}
		}
		d.Rows = append(d.Rows, ms)
	}
	b, err := json.Marshal(d)
	if err != nil {
		return "", fmt.Errorf("engines view data: %w", err)
	}
	return string(b), nil
}

// jsNum writes a number for a data- attribute, exactly (NaN as "").
func jsNum(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// compareNaNLast orders numbers ascending with NaN (no value) last.
func compareNaNLast(a, b float64) int {
	switch {
	case math.IsNaN(a) && math.IsNaN(b):
		return 0
	case math.IsNaN(a):
		return 1
	case math.IsNaN(b):
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// engineRunName names a run directory for people: its base name, with the
// parent's when the base says nothing ("sqlite/run" of a quickstart).
func engineRunName(dir string) string {
	base := filepath.Base(dir)
	if base == "run" {
		return filepath.Base(filepath.Dir(dir)) + "/" + base
	}
	return base
}
