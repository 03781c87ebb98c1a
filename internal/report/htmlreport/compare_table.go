package htmlreport

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/dbgauge/dbgauge/internal/stats"
)

// The metrics table: per metric each run's median and, for every run but
// the baseline, its ratio to the baseline, the interval and the verdict,
// coloured as the page's style sheet colours better and worse. Built as
// HTML (report.Table has no per-cell class).

type cmpCell struct{ Text, Class string }

var cmpTableHTML = template.Must(template.New("metrics").Parse(`<div class="tablewrap"><table>
<tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td{{if .Class}} class="{{.Class}}"{{end}}>{{.Text}}</td>{{end}}</tr>
{{end}}</table></div>`))

// cmpVerdictClass is the style of a verdict's cell.
func cmpVerdictClass(v string) string {
	switch v {
	case stats.VerdictFaster:
		return "better"
	case stats.VerdictSlower:
		return "worse"
	}
	return "same"
}

// cmpVerdictText is a verdict as the table writes it, with the reason a
// metric is not comparable.
func cmpVerdictText(v stats.RunComparison) string {
	if v.Verdict == stats.VerdictNotComparable && v.Reason != "" {
		return v.Verdict + ": " + v.Reason
	}
	return v.Verdict
}

// cmpIntervalText is a ratio's interval, or a dash without one.
func cmpIntervalText(v stats.RunComparison) string {
	if !v.HasInterval() {
		return "—"
	}
	return num(v.Low) + " – " + num(v.High)
}

// cmpValueText is a run's median of a metric, or why it has none.
func cmpValueText(m *cmpMetric) string {
	switch {
	case m == nil:
		return "not run"
	case len(m.samples) == 0:
		if m.missing != "" {
			return m.missing
		}
		return "—"
	}
	return num(stats.Median(m.samples))
}

// metricsSection is the table of every metric.
func (c *comparison) metricsSection() Section {
	head := []string{"metric", "unit", c.name(0) + " (baseline)"}
	for i := 1; i < len(c.runs); i++ {
		l := c.letters[i] + "/" + c.letters[0]
		head = append(head, c.name(i), l, fmt.Sprintf("%g%% interval of %s", 100*compareLevel, l), "verdict "+c.letters[i])
	}
	head = append(head, "repetitions")
	var rows [][]cmpCell
	for _, row := range c.rows {
		cells := []cmpCell{{Text: row.label}, {Text: row.unit}, {Text: cmpValueText(row.per[0]), Class: "num"}}
		reps := []string{cmpRepsText(row.per[0])}
		for i := 1; i < len(c.runs); i++ {
			v := row.vs[i-1]
			ratio := "—"
			if !math.IsNaN(v.Ratio) {
				ratio = num(v.Ratio)
			}
			cells = append(cells, cmpCell{Text: cmpValueText(row.per[i]), Class: "num"}, cmpCell{Text: ratio, Class: "num"},
				cmpCell{Text: cmpIntervalText(v), Class: "num"}, cmpCell{Text: cmpVerdictText(v), Class: cmpVerdictClass(v.Verdict)})
			reps = append(reps, cmpRepsText(row.per[i]))
		}
		cells = append(cells, cmpCell{Text: strings.Join(reps, " · "), Class: "num"})
		rows = append(rows, cells)
	}
	var b bytes.Buffer
	if err := cmpTableHTML.Execute(&b, struct {
		Head []string
		Rows [][]cmpCell
	}{head, rows}); err != nil {
		return Section{ID: "metrics", Title: "Metrics side by side", Reading: "The table could not be written: " + err.Error()}
	}
	reading := "Each run's median over its repetitions; the ratio to the baseline with its interval; the verdict."
	if len(c.rows) == 0 {
		reading = "The runs have no metric to compare."
	}
	return Section{ID: "metrics", Title: "Metrics side by side", Reading: reading, HTML: template.HTML(b.String())}
}

func cmpRepsText(m *cmpMetric) string {
	if m == nil {
		return "0"
	}
	return fmt.Sprint(len(m.samples))
}

// methodSection says how the ratios, intervals and verdicts were made.
func (c *comparison) methodSection() Section {
	n := 0
	for _, row := range c.rows {
		for _, v := range row.vs {
			if v.HasInterval() {
				n++
			}
		}
	}
	text := fmt.Sprintf("The ratio is the other run's median over the baseline's. Its %g%% interval is a percentile bootstrap "+
		"(%d resamples, fixed seed) that resamples each run's repetitions independently: the runs are not paired. "+
		"An interval entirely above or below 1 is a real difference: faster or slower, knowing that a bigger rate (tps, thruput, MB/s) "+
		"is better and a smaller time is; an interval that includes 1 is no significant difference. "+
		"Fewer than %d repetitions on either side give the ratio without an interval: too few repetitions for a verdict. "+
		"The repetitions are the cycles of a stress sweep, the repetitions of a query, the query executions a protocol kept. "+
		"Of the %d verdicts made here, about 1 in %g would show a difference by chance alone where there is none.",
		100*compareLevel, compareResamples, stats.MinCompareReps, n, math.Round(1/(1-compareLevel)))
	return Section{ID: "method", Title: "How to read the verdicts", Reading: text}
}
