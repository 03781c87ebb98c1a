package htmlreport

import (
	"github.com/dbgauge/dbgauge/internal/report"
)

func (r *Run) multiuserDoc(d *Doc) error {
	d.Title = "Throughput as users are added"
	charts, err := report.MultiuserChart(r.Multiuser)
	d.Sections = append(d.Sections, chartSections(charts, []diagram{{"multiuser", "Thruput against users", ""}})...)
	d.Sections = append(d.Sections, Section{Title: "Results", Table: CSVTable("", report.MultiuserCSV(r.Multiuser))})
	return err
}
