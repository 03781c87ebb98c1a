package htmlreport

import (
	"encoding/json"
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

// Load reads dir/manifest.json and dir/results.json. Only the results are
// required; a missing manifest is a warning on the page, not a failure.
func Load(dir string) (*Run, error) {
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		return nil, fmt.Errorf("%s: no results.json (is it a dbgauge run directory?)", dir)
	}
	var head struct {
		Experiment string `json:"experiment"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("%s/results.json: %w", dir, err)
	}
	r := &Run{Dir: dir, Experiment: head.Experiment}
	var target any
	switch head.Experiment {
	case "wisconsin":
		r.Wisconsin = &results.WisconsinResults{}
		target = r.Wisconsin
	case "dsbench":
		r.DSBench = &results.DSBenchResults{}
		target = r.DSBench
	case "qac":
		r.QAC = &results.QACResults{}
		target = r.QAC
	case "multiuser":
		r.Multiuser = &results.MultiuserResults{}
		target = r.Multiuser
	case "sizesweep":
		r.SizeSweep = &results.SizeSweepResults{}
		target = r.SizeSweep
	case "abtest":
		r.ABTest = &results.ABTestResults{}
		target = r.ABTest
	case "speedup":
		r.Speedup = &results.SpeedupResults{}
		target = r.Speedup
	case "storage":
		r.Storage = &results.StorageResults{}
		target = r.Storage
	default:
		return nil, fmt.Errorf("%s/results.json: unknown experiment %q", dir, head.Experiment)
	}
	if err := json.Unmarshal(b, target); err != nil {
		return nil, fmt.Errorf("%s/results.json: %w", dir, err)
	}
	if mb, err := os.ReadFile(filepath.Join(dir, "manifest.json")); err == nil {
		var m results.Manifest
		if err := json.Unmarshal(mb, &m); err == nil {
			r.Manifest = &m
		}
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
