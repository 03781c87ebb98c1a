package htmlreport

import (
	"github.com/dbgauge/dbgauge/internal/report"
)

func (r *Run) storageDoc(d *Doc) error {
	d.Title = "Storage"
	d.Sections = append(d.Sections, Section{Title: "Results", Table: report.StorageTable(r.Storage)})
	return nil
}
