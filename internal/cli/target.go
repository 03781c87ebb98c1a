package cli

import (
	"path/filepath"

	"github.com/dbgauge/dbgauge/internal/results"
)

// refuseRunFile refuses path, given to --flag as a file to write, when
// writing it would overwrite a run's own files (results.RunFileOf: its
// data, journal, logs, database or page): bad input, nothing written.
// page, if given, is the file the command writes there anyway (report's
// DIR/report.html), which stays allowed; example is a file to suggest.
// An empty path (the flag not given) is no file.
func refuseRunFile(flag, path, page, example string) error {
	if path == "" {
		return nil
	}
	dir, ok := results.RunFileOf(path)
	if !ok || page != "" && resolved(path) == resolved(page) {
		return nil
	}
	if resolved(filepath.Dir(path)) == dir {
		dir = filepath.Dir(path) // the run as the user named it
	}
	return usagef("--%s %s would overwrite a file of the run %s: give a new file outside the run directory (example: --%s %s)", flag, path, dir, flag, example)
}

// resolved is path made absolute, its directory's symbolic links followed.
func resolved(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}
