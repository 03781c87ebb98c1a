package htmlreport

import (
	"github.com/dbgauge/dbgauge/internal/report"
)

func (r *Run) qacDoc(d *Doc) error {
	d.Title = "Query time at cardinalities (Tucson Timing Protocol)"
	charts, err := report.QACChart(r.QAC)
	d.Sections = append(d.Sections, chartSections(charts, []diagram{{"qac", "Time against cardinality", ""}})...)
	d.Sections = append(d.Sections, Section{Title: "Results", Table: CSVTable("", report.QACCSV(r.QAC))})
	return err
}
