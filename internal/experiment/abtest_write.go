package experiment

import (
	"github.com/dbgauge/dbgauge/internal/report"
)

// write stores results.json, the tables and the diagrams (writeOutputs).
func (r *abRun) write() error {
	files := map[string][]byte{
		"abtest.txt": report.ABTestText(r.res),
		"abtest.csv": report.ABTestCSV(r.res),
	}
	charts, err := report.ABTestChart(r.res)
	return writeOutputs(r.run, r.res, files, charts, err)
}
