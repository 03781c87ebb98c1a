package experiment

import (
	"errors"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// writeOutputs stores a run's outputs: results.json first (nothing
// measured is lost if a table or chart fails), then the derived files (tables, paragraphs,
// charts) as report.Files renders them from the results, the same bytes
// `dbgauge report` writes. Every failure is reported, none stops the
// others.
func writeOutputs(run *results.Run, res results.Results) error {
	if d, ok := res.(interface{ DedupeWarnings() }); ok {
		d.DedupeWarnings() // a resumed run says its first part's warnings again
	}
	jerr := run.WriteJSON(results.ResultsFile, res)
	files, ferr := report.Files(res.Head().Experiment, res)
	werr := errors.Join(jerr, run.WriteFiles(files))
	if ferr != nil && jerr == nil {
		// A diagram that could not be drawn is said in the results, so
		// that the page (which inlines the files written) says it too.
		if w, ok := res.(interface{ Warn(string) }); ok {
			w.Warn("diagrams: " + ferr.Error())
			if err := run.WriteJSON(results.ResultsFile, res); err != nil {
				werr = errors.Join(werr, err)
			}
		}
	}
	return errors.Join(ferr, werr)
}
