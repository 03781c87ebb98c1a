package htmlreport

import (
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

func init() {
	RegisterPage(PageKind{Name: "sizesweep", Doc: (*Run).sizesweepDoc, Metrics: sizesweepMetrics})
}

// sizesweep is the run's results; nil when the run is not a sizesweep run.
func (r *Run) sizesweep() *results.SizeSweepResults {
	res, _ := r.Results.(*results.SizeSweepResults)
	return res
}

// sizesweepDoc is the page of a size sweep (seed 004 Test 2): per access
// method the slope and R², the indexed methods' flatness and the scale
// model's error first, then the diagram with its reading and the tables
// of sizesweep.csv, one per part.
func (r *Run) sizesweepDoc(d *Doc) error {
	s := r.sizesweep()
	d.Title = fmt.Sprintf("Retrieval time against relation size: %s", s.Engine)
	d.Summary = sizesweepSummary(s)
	d.Warnings = append(d.Warnings, sizesweepWarnings(s)...)
	charts, err := r.charts()
	d.Sections = append(d.Sections, chartSections(charts, []diagram{
		{"sizesweep", "Time against size", sizesweepReading(s)},
	})...)
	captions := map[string][2]string{
		"times":      {"Every size and access method", fmt.Sprintf("times in ms over the %d timed retrieves (after %d warm-up), rows per retrieve and the engine's plan", s.Reps, s.Warmup)},
		"fit":        {"No index: least-squares line", s.Basis + " time = intercept + slope x size (seed 004: linear from 5,000 tuples up)"},
		"flatness":   {"Indexed access: slowest size over fastest", s.Basis + " times (seed 004: 1.52 to 2.19, \"nearly constant\")"},
		"ratios":     {"Non-clustered over clustered", s.Basis + " time per size, and the sum of one over the sum of the other (seed 004 Table 10: about 1.1)"},
		"prediction": {"Scale model", "a line fitted on every size but the largest, extrapolated to the largest; error = (predicted - measured) / measured x 100"},
	}
	names, parts := ledTables(csvTable("", report.SizeSweepCSVTable(s)))
	for _, name := range names {
		t, c := parts[name], captions[name]
		if c[0] == "" {
			c[0] = name
		}
		t.Title = []string{c[1]}
		if name == "prediction" && s.Analysis != nil {
			t.Notes = append(t.Notes, s.Analysis.Notes...)
		}
		d.Sections = append(d.Sections, Section{ID: "table-" + name, Title: c[0], Table: t})
	}
	if _, ok := parts["prediction"]; !ok && s.Analysis != nil && len(s.Analysis.Notes) > 0 {
		d.Sections = append(d.Sections, Section{ID: "analysis-notes", Title: "Notes on the analysis", Reading: strings.Join(s.Analysis.Notes, "; ")})
	}
	return err
}
