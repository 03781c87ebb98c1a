package htmlreport

import (
	"github.com/dbgauge/dbgauge/internal/report"
)

func (r *Run) sizesweepDoc(d *Doc) error {
	d.Title = "Retrieval time against relation size"
	charts, err := report.SizeSweepChart(r.SizeSweep)
	d.Sections = append(d.Sections, chartSections(charts, []diagram{{"sizesweep", "Time against size", ""}})...)
	d.Sections = append(d.Sections, Section{Title: "Results", Table: CSVTable("", report.SizeSweepCSV(r.SizeSweep))})
	return err
}
