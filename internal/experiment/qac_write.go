package experiment

import (
	"github.com/dbgauge/dbgauge/internal/report"
)

// write stores results.json, the tables and the diagrams (writeOutputs).
func (r *qacRun) write() error {
	files := map[string][]byte{
		"qac.txt": report.QACText(r.res),
		"qac.csv": report.QACCSV(r.res),
	}
	if p := r.res.Protocol; p != nil {
		files["protocol.txt"] = []byte(p.Paragraph)
	}
	charts, err := report.QACChart(r.res)
	return writeOutputs(r.run, r.res, files, charts, err)
}
