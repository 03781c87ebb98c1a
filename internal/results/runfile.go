package results

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// RunFileOf tells whether writing to path would overwrite a run's own
// files, and names the run directory: a file that exists in a run
// directory (its data, the journal, the interval logs, the embedded
// database, the tables and the page: whatever is there, the run wrote
// it), or in a quickstart directory (its page, the side-by-side table) or
// an engine's directory of one (the engine's database); or
// one of the names a run keeps its data under (manifest.json,
// results.json, the journal) in a run directory, even before the run
// wrote it. Commands refuse such an output target (report --html,
// compare --html, generate --output): a page written over results.json
// destroys the measurement. Symbolic links are followed, as a write
// would.
func RunFileOf(path string) (runDir string, ok bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	exists := false
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs, exists = real, true
	} else if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(dir, filepath.Base(abs))
		_, lerr := os.Lstat(abs) // a dangling link is a file there too
		exists = lerr == nil
	}
	dir := filepath.Dir(abs)
	if isRunDir(dir) {
		if exists || slices.Contains([]string{ManifestFile, ResultsFile, JournalFile}, filepath.Base(abs)) {
			return dir, true
		}
		return "", false
	}
	if !exists {
		return "", false
	}
	// A quickstart directory (its page beside DIR/<engine>/run/), and an
	// engine's directory in it (its database <engine>.db beside run/).
	runs, _ := filepath.Glob(filepath.Join(dir, "*", "run"))
	for _, run := range runs {
		if isRunDir(run) {
			return dir, true
		}
	}
	if isRunDir(filepath.Join(dir, "run")) && strings.HasPrefix(filepath.Base(abs), filepath.Base(dir)+".") {
		return dir, true
	}
	return "", false
}

// isRunDir tells whether dir is a run directory dbgauge wrote: a manifest
// or results naming an experiment, or a journal.
func isRunDir(dir string) bool {
	for _, name := range []string{ManifestFile, ResultsFile} {
		var h struct {
			Experiment string `json:"experiment"`
		}
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil && json.Unmarshal(b, &h) == nil && h.Experiment != "" {
			return true
		}
	}
	_, err := os.Stat(filepath.Join(dir, JournalFile))
	return err == nil
}
