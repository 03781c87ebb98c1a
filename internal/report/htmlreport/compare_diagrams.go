package htmlreport

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// maxRatioMetrics bounds the ratio diagram: past it the ticks are
// unreadable and the table says it all.
const maxRatioMetrics = 80

// diagrams are the overlaid diagrams: the experiment's own (rate against
// scale and latency distributions of stress sweeps, per-query bars of
// Wisconsin runs), the metrics against the experiment's variable (users,
// size, p, cardinality), and every metric's ratio with its interval. A
// diagram that fails is reported in the error; the others are returned.
func (c *comparison) diagrams() ([]Section, error) {
	var out []Section
	var errs []error
	add := func(charts map[string][]byte, err error, name, title, reading string) {
		if err != nil {
			errs = append(errs, err)
		}
		if svg := charts[name+".svg"]; len(svg) > 0 {
			out = append(out, Section{ID: name, Title: title, Reading: reading, SVG: InlineSVG(svg)})
		}
	}
	if k := pageKindOf(c.runs[0].Experiment); k.Diagrams != nil {
		k.Diagrams(c, add)
	}
	for _, lc := range c.lineCharts() {
		charts, err := report.CompareLinesChart(lc.chart.Name, lc.chart.Title, lc.chart.XLabel, lc.chart.YLabel, lc.series)
		add(charts, err, lc.chart.Name, strings.ToUpper(lc.chart.Title[:1])+strings.SplitN(lc.chart.Title[1:], " (", 2)[0], lc.chart.Reading)
	}
	if metrics, series := c.ratioSeries(); len(metrics) > 0 {
		charts, err := report.CompareRatioChart("compare_ratios", "ratio to the baseline per metric (median ratio, "+cmpLevelText()+" interval)",
			"ratio to "+c.letters[0], metrics, series)
		reading := "Each metric's ratio to the baseline " + c.letters[0] + " with its interval, on a log axis; a bar that misses the dashed line at 1 is a real difference. " +
			"For a rate above 1 is faster, for a time below 1 is."
		if len(c.rows) > maxRatioMetrics {
			reading += fmt.Sprintf(" The first %d of %d metrics; the table has them all.", maxRatioMetrics, len(c.rows))
		}
		add(charts, err, "compare_ratios", "Ratios with their intervals", reading)
	}
	return out, errors.Join(errs...)
}

func cmpLevelText() string { return fmt.Sprintf("%g%%", 100*compareLevel) }

// rowsReading says, for up to limit metrics whose key starts with prefix,
// how each other run compares: "rate at scale 1: B 1.9× faster (B/A 1.92,
// 95% interval 1.71 – 2.10)".
func (c *comparison) rowsReading(prefix string, limit int) string {
	var parts []string
	n := 0
	for k := range c.rows {
		row := &c.rows[k]
		if !strings.HasPrefix(row.Key, prefix) {
			continue
		}
		n++
		if n > limit {
			continue
		}
		for i := 1; i < len(c.runs); i++ {
			v := row.vs[i-1]
			if math.IsNaN(v.Ratio) {
				parts = append(parts, fmt.Sprintf("%s: %s %s", row.Label, c.letters[i], cmpVerdictText(v)))
				continue
			}
			parts = append(parts, fmt.Sprintf("%s: %s %s (%s)", row.Label, c.letters[i], cmpDifferenceText(v), c.ratioNote(row, i, v)))
		}
	}
	if n > limit {
		parts = append(parts, fmt.Sprintf("and %d more in the table", n-limit))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + "."
}

// verdictTally counts each other run's verdicts over the metrics whose key
// starts with prefix and ends with suffix: "B: 5 faster, 1 slower, 2 no
// significant difference of 8."
func (c *comparison) verdictTally(suffix, prefix string) string {
	var parts []string
	for i := 1; i < len(c.runs); i++ {
		counts := map[string]int{}
		n := 0
		for _, row := range c.rows {
			if strings.HasPrefix(row.Key, prefix) && strings.HasSuffix(row.Key, suffix) {
				counts[row.vs[i-1].Verdict]++
				n++
			}
		}
		var ws []string
		for _, v := range []string{stats.VerdictFaster, stats.VerdictSlower, stats.VerdictNoDiff, stats.VerdictTooFew, stats.VerdictNotComparable} {
			if counts[v] > 0 {
				ws = append(ws, fmt.Sprintf("%d %s", counts[v], v))
			}
		}
		parts = append(parts, fmt.Sprintf("%s: %s of %d.", c.letters[i], strings.Join(ws, ", "), n))
	}
	return strings.Join(parts, " ")
}

// cmpLineChartData is one overlaid line chart: its description and a series
// per run and curve.
type cmpLineChartData struct {
	chart  *LineChart
	series []report.CompareSeries
}

// lineCharts gathers the metrics placed on line charts into one series per
// run and curve: x, the median, and the range of the repetitions.
func (c *comparison) lineCharts() []cmpLineChartData {
	var out []cmpLineChartData
	index := map[string]int{}
	type seriesKey struct {
		chart, curve string
		run          int
	}
	series := map[seriesKey]*report.CompareSeries{}
	var order []seriesKey
	for _, row := range c.rows {
		for ri, m := range row.per {
			if m == nil || m.Line == nil || len(m.Samples) == 0 {
				continue
			}
			name := m.Line.Chart.Name
			if _, ok := index[name]; !ok {
				index[name] = len(out)
				out = append(out, cmpLineChartData{chart: m.Line.Chart})
			}
			k := seriesKey{name, m.Line.Curve, ri}
			s := series[k]
			if s == nil {
				label := c.names()[ri]
				if m.Line.Curve != "" {
					label += ", " + m.Line.Curve
				}
				s = &report.CompareSeries{Label: label}
				series[k] = s
				order = append(order, k)
			}
			sum := stats.Summarize(m.Samples)
			s.X, s.Y = append(s.X, m.Line.X), append(s.Y, sum.Median)
			s.Low, s.High = append(s.Low, sum.Min), append(s.High, sum.Max)
		}
	}
	// curves by run, then in the order they appeared, so a run's curves
	// sit together in the legend
	slices.SortStableFunc(order, func(a, b seriesKey) int { return cmp.Compare(a.run, b.run) })
	for _, k := range order {
		s := series[k]
		cmpSortSeries(s)
		d := &out[index[k.chart]]
		d.series = append(d.series, *s)
	}
	return out
}

// cmpSortSeries orders a series' points by x, for its line.
func cmpSortSeries(s *report.CompareSeries) {
	idx := make([]int, len(s.X))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(s.X[a], s.X[b]) })
	pick := func(v []float64) []float64 {
		out := make([]float64, len(idx))
		for i, j := range idx {
			out[i] = v[j]
		}
		return out
	}
	s.X, s.Y, s.Low, s.High = pick(s.X), pick(s.Y), pick(s.Low), pick(s.High)
}

// ratioSeries are the ratio diagram's metric labels and one series per
// other run.
func (c *comparison) ratioSeries() ([]string, []report.RatioSeries) {
	rows := c.rows[:min(len(c.rows), maxRatioMetrics)]
	var metrics []string
	series := make([]report.RatioSeries, len(c.runs)-1)
	for i := range series {
		series[i].Label = c.names()[i+1]
	}
	drawn := false
	for _, row := range rows {
		l := row.Short
		if l == "" {
			l = row.Label
		}
		metrics = append(metrics, l)
		for i := range series {
			v := row.vs[i]
			series[i].Ratio = append(series[i].Ratio, v.Ratio)
			series[i].Low = append(series[i].Low, v.Low)
			series[i].High = append(series[i].High, v.High)
			drawn = drawn || v.Ratio > 0
		}
	}
	if !drawn {
		return nil, nil
	}
	return metrics, series
}
