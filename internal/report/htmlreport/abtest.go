package htmlreport

import (
	"github.com/dbgauge/dbgauge/internal/report"
)

func (r *Run) abtestDoc(d *Doc) error {
	d.Title = "A/B comparison"
	charts, err := report.ABTestChart(r.ABTest)
	d.Sections = append(d.Sections, chartSections(charts, []diagram{{"abtest", "Ratio B/A per query", ""}})...)
	d.Sections = append(d.Sections, Section{Title: "Results", Table: CSVTable("", report.ABTestCSV(r.ABTest))})
	return err
}
