package htmlreport

import (
	"github.com/dbgauge/dbgauge/internal/report"
)

func (r *Run) speedupDoc(d *Doc) error {
	d.Title = "Speedup, join memory and page size"
	charts, err := report.SpeedupCharts(r.Speedup)
	d.Sections = append(d.Sections, chartSections(charts, []diagram{
		{"speedup", "Speedup against parallelism", ""}, {"response", "Response time against parallelism", ""},
		{"memory", "Time against join memory", ""}, {"memory_batches", "Hash batches against join memory", ""}, {"pagesize", "Page size", ""},
	})...)
	d.Sections = append(d.Sections, Section{Title: "Results", Table: CSVTable("", report.SpeedupCSV(r.Speedup))})
	return err
}
