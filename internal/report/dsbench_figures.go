package report

import (
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
)

// The workload's own figures of a sweep (results.WorkloadFigure): per
// scale and figure, its value over the scale and per cycle, and for an
// audited figure its bounds and the verdict. A workload that derives no
// figure has no table.

// DSBenchFigures is the figures table (figures.txt, figures.csv), nil when
// no scale has a figure.
func DSBenchFigures(r *results.DSBenchResults) *Table {
	shown := false
	for _, s := range r.Scales {
		shown = shown || len(s.Figures) > 0
	}
	if !shown {
		return nil
	}
	t := &Table{Title: []string{"The workload's own figures, per scale: over the scale and per cycle; audited figures with their bounds"}}
	t.Rows = append(t.Rows, []string{"scale", "figure", "unit", "scale_value", "cycles", "bounds", "audit"})
	for _, s := range r.Scales {
		x := strconv.FormatInt(s.Scale, 10)
		for _, f := range s.Figures {
			cycles := make([]string, len(f.Cycles))
			for i, v := range f.Cycles {
				cycles[i] = figureCell(v)
			}
			unit := f.Unit
			if unit == "" {
				unit = "-"
			}
			bounds, verdict := "-", "-"
			if f.Low != nil || f.High != nil {
				lo, hi := "", ""
				if f.Low != nil {
					lo = figureCell(*f.Low)
				}
				if f.High != nil {
					hi = figureCell(*f.High)
				}
				bounds = lo + ".." + hi
			}
			if f.Pass != nil {
				verdict = "pass"
				if !*f.Pass {
					verdict = "FAIL"
				}
			}
			t.Rows = append(t.Rows, []string{x, strings.ReplaceAll(f.Name, " ", "_"), unit, figureCell(f.Scale), strings.Join(cycles, ","), bounds, verdict})
		}
	}
	t.Notes = []string{"cycles lists the figure's value after each cycle, in order; an audit is judged on the scale's value, once the workload has inputs enough."}
	return t
}

// DSBenchFigureFiles are figures.txt and figures.csv when the run has the
// table, none otherwise.
func DSBenchFigureFiles(r *results.DSBenchResults) map[string][]byte {
	t := DSBenchFigures(r)
	if t == nil {
		return nil
	}
	return map[string][]byte{"figures.txt": t.TextBytes(), "figures.csv": t.CSVBytes()}
}

// figureCell is a figure as a reader takes it in: whole units from a
// thousand up, two decimals from one, four below (an audit's percentages).
func figureCell(v float64) string {
	a := v
	if a < 0 {
		a = -a
	}
	switch {
	case a >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	default:
		return strconv.FormatFloat(v, 'f', 4, 64)
	}
}
