package htmlreport

import (
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// wisconsinBars is the per-query diagram of one size: a bar per query
// result that passed its cardinality check (its median time), and a row
// without bar, saying what happened, for one that failed. Results that are
// not applicable on the engine are left out: the tables list them.
func wisconsinBars(w *results.WisconsinResults, s wisconsinSize) Section {
	var rows []Bar
	var values []float64
	for _, q := range s.queries {
		switch q.Status {
		case results.StatusNotApplicable:
			continue
		case results.StatusOK:
			e := q.ElapsedMS
			rows = append(rows, Bar{Label: s.queryLabel(q), Value: e.Median, Text: num(e.Median) + " ms",
				Title: fmt.Sprintf("Q%d %s, %s, %s: median %s ms of %d repetitions (min %s, max %s)",
					q.Query, q.Class, q.Organization, q.Destination, num(e.Median), e.N, num(e.Min), num(e.Max))})
			values = append(values, e.Median)
		default:
			rows = append(rows, Bar{Label: s.queryLabel(q), Text: report.Cell(q),
				Title: fmt.Sprintf("Q%d %s, %s, %s: %s %s", q.Query, q.Class, q.Organization, q.Destination, q.Status, q.Reason)})
		}
	}
	sec := Section{ID: fmt.Sprintf("queries_n%d", s.size), Title: fmt.Sprintf("Per-query times, N = %d", s.size), Reading: wisconsinReading(s)}
	if len(values) == 0 {
		return sec
	}
	bars := Bars{
		Title: fmt.Sprintf("%s %s, N = %d: median elapsed time per query (%d repetitions, %s cache)", w.Engine, w.EngineVersion, s.size, w.Reps, w.Cache),
		Axis:  "median elapsed time [ms]",
		Rows:  rows,
		Log:   LogScaleFits(values),
	}
	if bars.Log {
		bars.Axis += ", log scale"
	}
	sec.SVG = bars.SVG()
	return sec
}

// wisconsinReading is the one line under the diagram, from its numbers.
func wisconsinReading(s wisconsinSize) string {
	var b strings.Builder
	switch {
	case s.ok == 0:
		fmt.Fprintf(&b, "No query ran with its expected cardinality at N = %d, so there is no time to draw.", s.size)
	case s.ok == 1:
		fmt.Fprintf(&b, "Only %s returned its expected cardinality: %s ms.", s.queryLabel(s.fastest), num(s.fastest.ElapsedMS.Median))
	default:
		slow, fast := s.slowest.ElapsedMS.Median, s.fastest.ElapsedMS.Median
		fmt.Fprintf(&b, "%s is the slowest at %s ms", s.queryLabel(s.slowest), num(slow))
		if fast > 0 {
			fmt.Fprintf(&b, ", %s times", num(slow/fast))
		} else {
			b.WriteString(", against")
		}
		fmt.Fprintf(&b, " the fastest, %s at %s ms; the geometric mean of the %d medians is %s ms.",
			s.queryLabel(s.fastest), num(fast), s.ok, num(s.geoMean))
	}
	if s.failed > 0 {
		fmt.Fprintf(&b, " %d query results failed (wrong cardinality, error or timeout): their rows have no bar and say why.", s.failed)
	}
	return b.String()
}
