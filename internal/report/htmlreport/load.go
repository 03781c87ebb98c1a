package htmlreport

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/dbgauge/dbgauge/internal/report"
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

// charts are the run's diagrams as the run wrote them (name.svg beside
// results.json), so that a diagram is drawn once and the page inlines the
// very file the run directory holds. A run directory without them (a copy
// of its results alone) gets them drawn by the same builder the run used,
// report.Files.
func (r *Run) charts() (map[string][]byte, error) {
	paths, _ := filepath.Glob(filepath.Join(r.Dir, "*.svg"))
	if len(paths) == 0 {
		return report.Files(r.Experiment, r.Results)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return out, err
		}
		out[filepath.Base(p)] = b
	}
	return out, nil
}
