package htmlreport

import (
	"fmt"
	"strconv"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// The page of a load run (dbgauge load); the Run type itself is in
// load.go.
func init() {
	RegisterPage(PageKind{Name: "load", Doc: (*Run).loadDoc, Metrics: loadMetrics})
}

// loads is the run's results; nil when the run is not a load run.
func (r *Run) loads() *results.LoadResults {
	res, _ := r.Results.(*results.LoadResults)
	return res
}

// loadDoc: the rate of each load first, then the table.
func (r *Run) loadDoc(d *Doc) error {
	l := r.loads()
	d.Title = "Wisconsin load"
	if l.Engine != "" {
		d.Title += ": " + l.Engine
	}
	for _, x := range l.Loads {
		d.Summary = append(d.Summary, Headline{Label: x.Table, Value: num(x.RowsPerS) + " rows/s",
			Note: fmt.Sprintf("%d rows in %s s", x.Rows, strconv.FormatFloat(x.Seconds, 'f', 2, 64))})
	}
	r.warnIncomplete(d, l.Complete, l.Error, "the loads that finished")
	for _, w := range l.Warnings {
		r.warn(d, w)
	}
	d.Sections = append(d.Sections, Section{ID: "loads", Title: "Loads", Table: report.LoadRunTable(l)})
	return nil
}

// loadMetrics: the rate of each relation's load (one load each).
func loadMetrics(r *Run) []Metric {
	var out []Metric
	for _, x := range r.loads().Loads {
		m := Metric{Key: "load " + x.Table, Label: "load " + x.Table, Unit: "rows/s", Better: stats.BiggerIsBetter}
		if x.RowsPerS > 0 {
			m.Samples = []float64{x.RowsPerS}
		} else {
			m.Missing = "not measured"
		}
		out = append(out, m)
	}
	return out
}
