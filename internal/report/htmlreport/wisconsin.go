package htmlreport

import (
	"fmt"
	"slices"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

func init() {
	RegisterPage(PageKind{Name: "wisconsin", Doc: (*Run).wisconsinDoc, RunsMetrics: wisconsinMetrics, Diagrams: wisconsinDiagrams})
}

// wisconsin is the run's results; nil when the run is not a wisconsin run.
func (r *Run) wisconsin() *results.WisconsinResults {
	res, _ := r.Results.(*results.WisconsinResults)
	return res
}

// wisconsinDoc is the page of a Wisconsin run: per size the cardinality
// checks, the geometric mean and the slowest and fastest query first, then
// the per-query bar diagrams, the tables (every result, the sizes side by
// side, the loads, seed 000's Tables 1-11).
func (r *Run) wisconsinDoc(d *Doc) error {
	w := r.wisconsin()
	d.Title = fmt.Sprintf("Wisconsin benchmark: %s %s", w.Engine, w.EngineVersion)
	sizes := wisconsinSizes(w)
	for _, s := range sizes {
		d.Summary = append(d.Summary, s.headlines()...)
	}
	r.wisconsinWarnings(d, sizes)
	for _, s := range sizes {
		if len(s.queries) > 0 {
			d.Sections = append(d.Sections, wisconsinBars(w, s))
		}
	}
	d.Sections = append(d.Sections, Section{ID: "results", Title: "Every query result", Table: report.DetailTable(w)})
	if t := report.EngineTimeTable(w); t != nil {
		d.Sections = append(d.Sections, Section{ID: "enginetime", Title: "Where the time goes: client and engine", Table: t})
	}
	if t := report.AdjustedTable(w); t != nil {
		d.Sections = append(d.Sections, Section{ID: "adjusted", Title: "Processing without storing the result (adjusted tables)", Table: t})
	}
	if len(w.Sizes) > 1 {
		d.Sections = append(d.Sections, Section{ID: "scaleup", Title: "Queries by relation size", Table: report.ScaleTable(w)})
	}
	d.Sections = append(d.Sections, Section{ID: "loads", Title: "Loads and buffer ratio", Table: report.LoadTable(w)})
	for _, s := range sizes {
		for _, t := range report.PaperTables([]*results.WisconsinResults{w}, s.size) {
			// the table's first title line becomes the heading
			t.Title = slices.Clone(t.Title)
			title := t.Title[0]
			t.Title = t.Title[1:]
			d.Sections = append(d.Sections, Section{Title: title, Table: t})
		}
	}
	return nil
}
