package experiment

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// writeOutputs stores a run's outputs: results.json first (nothing
// measured is lost if a table or chart fails), then the derived files
// (tables, paragraphs, charts) as report.Files renders them from the
// results, the same bytes `dbgauge report` writes. Every failure is
// reported, none stops the others.
func writeOutputs(run *results.Run, res results.Results) error {
	var errs []error
	if err := run.WriteJSON(results.ResultsFile, res); err != nil {
		errs = append(errs, err)
	}
	files, err := report.Files(res.Head().Experiment, res)
	if err != nil {
		errs = append(errs, err)
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := run.WriteFile(name, files[name]); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}
