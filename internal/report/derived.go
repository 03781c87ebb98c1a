package report

import (
	"fmt"
	"maps"
	"sync"

	"github.com/dbgauge/dbgauge/internal/results"
)

// FilesFunc renders a run's derived files from its results alone: tables
// as text and CSV, diagrams as SVG and PNG, paragraphs. The map's keys
// are file names in the run directory. An error is a file that could not
// be drawn; the map holds every other.
type FilesFunc func(r results.Results) (map[string][]byte, error)

var derived = struct {
	sync.RWMutex
	m map[string]FilesFunc
}{m: map[string]FilesFunc{}}

// RegisterFiles makes an experiment's derived files known. Each
// experiment registers from its own file; a duplicate panics.
func RegisterFiles(experiment string, f FilesFunc) {
	derived.Lock()
	defer derived.Unlock()
	if _, dup := derived.m[experiment]; dup {
		panic(fmt.Sprintf("report.RegisterFiles: %q registered twice", experiment))
	}
	derived.m[experiment] = f
}

// Files are the derived files of a run of experiment with results r: what
// the run writes as it ends and `dbgauge report DIR` rewrites from
// results.json, the same bytes both times. An experiment that registered
// none has none.
func Files(experiment string, r results.Results) (map[string][]byte, error) {
	derived.RLock()
	f := derived.m[experiment]
	derived.RUnlock()
	if f == nil {
		return nil, nil
	}
	return f(r)
}

// withCharts adds the charts (and their error) to files.
func withCharts(files, charts map[string][]byte, err error) (map[string][]byte, error) {
	maps.Copy(files, charts)
	return files, err
}
