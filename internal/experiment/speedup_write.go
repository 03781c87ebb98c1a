package experiment

import (
	"github.com/dbgauge/dbgauge/internal/report"
)

// write stores results.json, the tables and the diagrams (writeOutputs).
func (r *speedupRun) write() error {
	files := map[string][]byte{
		"speedup.txt": report.SpeedupText(r.res),
		"speedup.csv": report.SpeedupCSV(r.res),
	}
	charts, err := report.SpeedupCharts(r.res)
	return writeOutputs(r.run, r.res, files, charts, err)
}
