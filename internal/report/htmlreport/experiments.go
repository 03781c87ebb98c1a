package htmlreport

import (
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// The experiments' pages. Each fills the summary, the warnings, the
// diagrams with their readings and the tables from its results.

func (r *Run) wisconsinDoc(d *Doc) error {
	d.Title = "Wisconsin benchmark"
	for name, b := range report.WisconsinCSV([]*results.WisconsinResults{r.Wisconsin}) {
		if t := CSVTable(name, b); t != nil {
			d.Sections = append(d.Sections, Section{Title: name, Table: t})
		}
	}
	return nil
}

func (r *Run) dsbenchDoc(d *Doc) error {
	d.Title = "DSBENCH stress sweep"
	charts, err := report.DSBenchCharts(r.DSBench)
	d.Sections = append(d.Sections, chartSections(charts, []diagram{
		{"rate", "Rate against scale", ""}, {"cycle", "Cycles", ""}, {"freq", "Residence time frequencies", ""}, {"conf", "Confidence", ""},
	})...)
	d.Sections = append(d.Sections, Section{Title: "Results", Table: CSVTable("", report.DSBenchCSV(r.DSBench))})
	return err
}

func (r *Run) qacDoc(d *Doc) error {
	d.Title = "Query time at cardinalities (Tucson Timing Protocol)"
	charts, err := report.QACChart(r.QAC)
	d.Sections = append(d.Sections, chartSections(charts, []diagram{{"qac", "Time against cardinality", ""}})...)
	d.Sections = append(d.Sections, Section{Title: "Results", Table: CSVTable("", report.QACCSV(r.QAC))})
	return err
}

func (r *Run) multiuserDoc(d *Doc) error {
	d.Title = "Throughput as users are added"
	charts, err := report.MultiuserChart(r.Multiuser)
	d.Sections = append(d.Sections, chartSections(charts, []diagram{{"multiuser", "Thruput against users", ""}})...)
	d.Sections = append(d.Sections, Section{Title: "Results", Table: CSVTable("", report.MultiuserCSV(r.Multiuser))})
	return err
}

func (r *Run) sizesweepDoc(d *Doc) error {
	d.Title = "Retrieval time against relation size"
	charts, err := report.SizeSweepChart(r.SizeSweep)
	d.Sections = append(d.Sections, chartSections(charts, []diagram{{"sizesweep", "Time against size", ""}})...)
	d.Sections = append(d.Sections, Section{Title: "Results", Table: CSVTable("", report.SizeSweepCSV(r.SizeSweep))})
	return err
}

func (r *Run) abtestDoc(d *Doc) error {
	d.Title = "A/B comparison"
	charts, err := report.ABTestChart(r.ABTest)
	d.Sections = append(d.Sections, chartSections(charts, []diagram{{"abtest", "Ratio B/A per query", ""}})...)
	d.Sections = append(d.Sections, Section{Title: "Results", Table: CSVTable("", report.ABTestCSV(r.ABTest))})
	return err
}

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

func (r *Run) storageDoc(d *Doc) error {
	d.Title = "Storage"
	d.Sections = append(d.Sections, Section{Title: "Results", Table: report.StorageTable(r.Storage)})
	return nil
}
