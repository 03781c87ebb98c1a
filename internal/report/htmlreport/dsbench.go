package htmlreport

import (
	"github.com/dbgauge/dbgauge/internal/report"
)

func (r *Run) dsbenchDoc(d *Doc) error {
	d.Title = "DSBENCH stress sweep"
	charts, err := report.DSBenchCharts(r.DSBench)
	d.Sections = append(d.Sections, chartSections(charts, []diagram{
		{"rate", "Rate against scale", ""}, {"cycle", "Cycles", ""}, {"freq", "Residence time frequencies", ""}, {"conf", "Confidence", ""},
	})...)
	d.Sections = append(d.Sections, Section{Title: "Results", Table: CSVTable("", report.DSBenchCSV(r.DSBench))})
	return err
}
