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

// cmpPText is the adjusted p-value, or a dash without a test.
func cmpPText(v stats.RunComparison) string {
	if math.IsNaN(v.Q) {
		return "—"
	}
	return num(v.Q)
}

// cmpValueText is a run's median of a metric, or why it has none.
func cmpValueText(m *Metric) string {
	switch {
	case m == nil:
		return "not run"
	case len(m.Samples) == 0:
		if m.Missing != "" {
			return m.Missing
		}
		return "—"
	}
	return num(stats.Median(m.Samples))
}

// metricsSection is the table of every metric.
func (c *comparison) metricsSection() Section {
	head := []string{"metric", "unit", c.name(0) + " (baseline)"}
	for i := 1; i < len(c.runs); i++ {
		l := c.letters[i] + "/" + c.letters[0]
		head = append(head, c.name(i), l, "improvement "+c.letters[i], fmt.Sprintf("%g%% interval of %s", 100*compareLevel, l), "p (adjusted)", "verdict "+c.letters[i])
	}
	head = append(head, "repetitions")
	var rows [][]cmpCell
	for _, row := range c.rows {
		cells := []cmpCell{{Text: row.Label}, {Text: row.Unit}, {Text: cmpValueText(row.per[0]), Class: "num"}}
		reps := []string{cmpRepsText(row.per[0])}
		for i := 1; i < len(c.runs); i++ {
			v := row.vs[i-1]
			ratio := "—"
			if !math.IsNaN(v.Ratio) {
				ratio = num(v.Ratio)
			}
			cells = append(cells, cmpCell{Text: cmpValueText(row.per[i]), Class: "num"}, cmpCell{Text: ratio, Class: "num"},
				cmpCell{Text: cmpImprovementText(v.Ratio, row.Better), Class: "num"}, cmpCell{Text: cmpIntervalText(v), Class: "num"}, cmpCell{Text: cmpPText(v), Class: "num"},
				cmpCell{Text: cmpVerdictText(v), Class: cmpVerdictClass(v.Verdict)})
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
	reading := "Each run's median over its repetitions; the ratio to the baseline; the improvement, seed 004's percent change of the rate (a time's rate is its inverse: queries per second, its effective transaction rate), positive when the run is better; the ratio's interval; the verdict."
	if len(c.rows) == 0 {
		reading = "The runs have no metric to compare."
	}
	return Section{ID: "metrics", Title: "Metrics side by side", Reading: reading, HTML: template.HTML(b.String())}
}

// cmpImprovementText is seed 004's percent improvement of the other run
// over the baseline, on the rate: (rate - baseline rate) / baseline rate,
// where a time's rate is its inverse (its effective transaction rate).
func cmpImprovementText(ratio float64, better stats.Better) string {
	if math.IsNaN(ratio) || ratio <= 0 {
		return "—"
	}
	gain := ratio - 1
	if better == stats.SmallerIsBetter {
		gain = 1/ratio - 1
	}
	return fmt.Sprintf("%+.1f%%", 100*gain)
}

func cmpRepsText(m *Metric) string {
	if m == nil {
		return "0"
	}
	return fmt.Sprint(len(m.Samples))
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
	alpha := 1 - compareLevel
	text := fmt.Sprintf("The ratio is the other run's median over the baseline's. Its %g%% interval is a percentile bootstrap "+
		"(%d resamples, fixed seed) that resamples each run's repetitions independently: the runs are not paired. "+
		"A difference (faster or slower, knowing that a bigger rate such as tps, thruput or MB/s is better and a smaller time is) "+
		"needs two things: the interval entirely above or below 1, and the Mann-Whitney test of the two sets of repetitions "+
		"(two-sided, exact where there are no ties) with a p-value below %g after the Benjamini-Hochberg adjustment for the %d metrics "+
		"compared with an interval here. Anything else is no significant difference. The adjustment keeps the share of verdicts "+
		"that are differences by chance near %g%% however many metrics the page holds; the test keeps few repetitions from "+
		"looking conclusive. Fewer than %d repetitions on either side give the ratio without an interval, and repetitions "+
		"too few for the test ever to reach %g give the interval but no verdict: with 3 against 3 the smallest possible "+
		"p-value is 0.1 and with 3 against 4 it is 0.057, so such rows say too few repetitions whatever their interval; "+
		"4 against 4 (0.029) or 3 against 5 (0.036) is the least that can be judged, 5 against 5 can reach 0.008. "+
		"The repetitions are the cycles of a stress sweep, the repetitions of a query, the query executions a protocol kept.",
		100*compareLevel, compareResamples, alpha, n, 100*alpha, stats.MinCompareReps, alpha)
	return Section{ID: "method", Title: "How to read the verdicts", Reading: text}
}
