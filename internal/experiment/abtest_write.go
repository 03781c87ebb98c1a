package experiment

import (
	"errors"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/report"
)

// write stores the run's outputs: results.json first (nothing measured is
// lost if a table or chart fails), then the tables and the diagram.
func (r *abRun) write() error {
	var errs []error
	if err := r.run.WriteJSON("results.json", r.res); err != nil {
		errs = append(errs, err)
	}
	files := map[string][]byte{
		"abtest.txt": report.ABTestText(r.res),
		"abtest.csv": report.ABTestCSV(r.res),
	}
	charts, err := report.ABTestChart(r.res)
	if err != nil {
		errs = append(errs, err)
	}
	for k, v := range charts {
		files[k] = v
	}
	for name, b := range files {
		if err := r.run.WriteFile(name, b); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}
