package htmlreport

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/dbgauge/dbgauge/internal/results"
)

// Run is one run directory as read back: its manifest and its results,
// decoded into the registered type of its experiment.
type Run struct {
	Dir        string
	Manifest   *results.Manifest // nil when manifest.json is missing
	Experiment string
	Results    results.Results
}

// Load reads dir/manifest.json and dir/results.json through
// results.ReadRun. Only the results are required; a missing manifest is a
// warning on the page, not a failure.
func Load(dir string) (*Run, error) {
	if _, err := os.Stat(filepath.Join(dir, results.ResultsFile)); err != nil {
		return nil, fmt.Errorf("%s: no results.json (is it a dbgauge run directory?)", dir)
	}
	s, err := results.ReadRun(dir)
	if err != nil {
		return nil, err
	}
	r := &Run{Dir: dir, Manifest: s.Manifest, Experiment: s.Experiment, Results: s.Results}
	return r, nil
}

// file reads a file of the run directory; nil when it is not there.
func (r *Run) file(name string) []byte {
	b, err := os.ReadFile(filepath.Join(r.Dir, name))
	if err != nil {
		return nil
	}
	return b
}
