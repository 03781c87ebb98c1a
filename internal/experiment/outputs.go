package experiment

import (
	"errors"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/results"
)

// writeOutputs stores a run's outputs: results.json first (nothing
// measured is lost if a table or chart fails), then the files (tables,
// paragraphs) and the charts; chartErr is the charts' rendering error.
// Every failure is reported, none stops the others.
func writeOutputs(run *results.Run, res any, files, charts map[string][]byte, chartErr error) error {
	var errs []error
	if err := run.WriteJSON("results.json", res); err != nil {
		errs = append(errs, err)
	}
	if chartErr != nil {
		errs = append(errs, chartErr)
	}
	for _, set := range []map[string][]byte{files, charts} {
		for name, b := range set {
			if err := run.WriteFile(name, b); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", name, err))
			}
		}
	}
	return errors.Join(errs...)
}
