package htmlreport

import (
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

func (r *Run) wisconsinDoc(d *Doc) error {
	d.Title = "Wisconsin benchmark"
	for name, b := range report.WisconsinCSV([]*results.WisconsinResults{r.Wisconsin}) {
		if t := CSVTable(name, b); t != nil {
			d.Sections = append(d.Sections, Section{Title: name, Table: t})
		}
	}
	return nil
}
