package htmlreport

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/dbgauge/dbgauge/internal/results"
)

// Run is one run directory as read back: its manifest and its results,
// decoded into the type of its experiment (one of the pointers is set).
type Run struct {
	Dir        string
	Manifest   *results.Manifest // nil when manifest.json is missing
	Experiment string

	Wisconsin *results.WisconsinResults
	DSBench   *results.DSBenchResults
	QAC       *results.QACResults
	Multiuser *results.MultiuserResults
	SizeSweep *results.SizeSweepResults
	ABTest    *results.ABTestResults
	Speedup   *results.SpeedupResults
	Storage   *results.StorageResults
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
	r := &Run{Dir: dir, Manifest: s.Manifest, Experiment: s.Experiment}
	switch res := s.Results.(type) {
	case *results.WisconsinResults:
		r.Wisconsin = res
	case *results.DSBenchResults:
		r.DSBench = res
	case *results.QACResults:
		r.QAC = res
	case *results.MultiuserResults:
		r.Multiuser = res
	case *results.SizeSweepResults:
		r.SizeSweep = res
	case *results.ABTestResults:
		r.ABTest = res
	case *results.SpeedupResults:
		r.Speedup = res
	case *results.StorageResults:
		r.Storage = res
	}
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
