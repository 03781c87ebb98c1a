// Package results owns the run directory, the single source of truth of a
// run: the manifest, the journal written as measurements are taken, the
// machine-readable summary and the exported tables. It never draws.
package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Run is one run directory being written.
type Run struct {
	Dir     string
	journal *Journal
}

// DefaultDir is runs/<UTC time>-<experiment> under base.
func DefaultDir(base, experiment string, now time.Time) string {
	return filepath.Join(base, now.UTC().Format("20060102T150405Z")+"-"+experiment)
}

// CheckWritable verifies that dir can be created and written, without
// leaving anything behind: bad output directories are refused before a run
// touches an engine.
func CheckWritable(dir string) error {
	parent := dir
	for {
		if st, err := os.Stat(parent); err == nil {
			if !st.IsDir() {
				return fmt.Errorf("output directory %s: %s is not a directory", dir, parent)
			}
			break
		}
		next := filepath.Dir(parent)
		if next == parent {
			break
		}
		parent = next
	}
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			return fmt.Errorf("output directory %s is not empty: choose a new --out", dir)
		}
	}
	f, err := os.CreateTemp(parent, ".dbgauge-probe-*")
	if err != nil {
		return fmt.Errorf("output directory %s is not writable (%v): choose another --out", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// Create makes the run directory and opens its journal.
func Create(dir string) (*Run, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create run directory: %w", err)
	}
	j, err := OpenJournal(filepath.Join(dir, JournalFile))
	if err != nil {
		return nil, err
	}
	return &Run{Dir: dir, journal: j}, nil
}

// Journal returns the run's journal.
func (r *Run) Journal() *Journal { return r.journal }

// Path names a file in the run directory.
func (r *Run) Path(name string) string { return filepath.Join(r.Dir, name) }

// WriteJSON writes v as indented JSON into the run directory, atomically
// (temporary file then rename) so a reader never sees half a file.
func (r *Run) WriteJSON(name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return r.WriteFile(name, append(b, '\n'))
}

// WriteFile writes a file of the run directory atomically.
func (r *Run) WriteFile(name string, data []byte) error {
	tmp := r.Path("." + name + ".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		os.Remove(tmp) // a full disk keeps no half file
		return fmt.Errorf("write %s: %w", name, err)
	}
	return os.Rename(tmp, r.Path(name))
}

// WriteFiles writes every file of files (name to bytes), each atomically,
// in name order; a failure does not stop the others and every one is
// reported.
func (r *Run) WriteFiles(files map[string][]byte) error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := r.WriteFile(name, files[name]); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Close closes the journal.
func (r *Run) Close() error { return r.journal.Close() }
