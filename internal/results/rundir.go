// Package results owns the run directory, the single source of truth of a
// run: the manifest, the journal written as measurements are taken, the
// machine-readable summary and the exported tables. It never draws.
package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// Run is one run directory being written.
type Run struct {
	Dir      string
	journal  *Journal
	reserved bool  // reserveFile holds space for the last words
	filled   error // the write that found the disk full and took the reserve
}

// DefaultDir reserves a new run directory <UTC time>-<experiment> under
// base (runs/ by default, created if need be): it creates the directory,
// atomically, so that runs started in the same second, by one process or
// several, each get their own: the second <time>-<experiment>-2, the
// third -3, and so on. release removes the directory again while it is
// empty, and base too if DefaultDir created it and it is empty: a run
// refused before it wrote anything leaves nothing behind. Call release
// when the run ends, whatever happened; it leaves a written run alone.
func DefaultDir(base, experiment string, now time.Time) (dir string, release func(), err error) {
	_, serr := os.Stat(base)
	madeBase := errors.Is(serr, fs.ErrNotExist)
	name := now.UTC().Format("20060102T150405Z") + "-" + experiment
	for n, tries := 1, 0; ; tries++ {
		dir = filepath.Join(base, name)
		if n > 1 {
			dir += "-" + strconv.Itoa(n)
		}
		if err := os.MkdirAll(base, 0o755); err != nil {
			return "", nil, fmt.Errorf("directory of runs %s: %w: give --out", base, err)
		}
		err := os.Mkdir(dir, 0o755)
		switch {
		case err == nil:
			return dir, func() {
				os.Remove(dir) // fails, as it should, once the run wrote into it
				if madeBase {
					os.Remove(base)
				}
			}, nil
		case errors.Is(err, fs.ErrExist):
			n++ // taken by another run started in the same second
		case errors.Is(err, fs.ErrNotExist) && tries < 10:
			// base was removed meanwhile by a run refused at once: again
		default:
			return "", nil, fmt.Errorf("run directory %s: %w: give --out", dir, err)
		}
	}
}

// CheckWritable verifies that dir can be created and written, without
// leaving anything behind: bad output directories are refused before a run
// touches an engine.
func CheckWritable(dir string) error {
	parent := dir
	for {
		if st, err := os.Stat(parent); err == nil {
			if !st.IsDir() {
				return fmt.Errorf("--out %s: %s is a file, not a directory: choose another --out", dir, parent)
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
			return fmt.Errorf("--out %s is not empty: choose a new --out", dir)
		}
	}
	f, err := os.CreateTemp(parent, ".dbgauge-probe-*")
	if err != nil {
		return fmt.Errorf("--out %s is not writable (%v): choose another --out", dir, err)
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
	r := &Run{Dir: dir, journal: j}
	r.reserve()
	return r, nil
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

// WriteFile writes a file of the run directory atomically. On a full disk
// it gives back the run's reserved space (reserve.go) and tries once more.
func (r *Run) WriteFile(name string, data []byte) error {
	err := r.writeFile(name, data)
	if diskFull(err) && r.release() {
		r.filled = err
		err = r.writeFile(name, data)
	}
	return err
}

func (r *Run) writeFile(name string, data []byte) error {
	tmp := r.Path("." + name + ".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		os.Remove(tmp) // a full disk keeps no half file
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := os.Rename(tmp, r.Path(name)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
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
func (r *Run) Close() error {
	r.release()
	return r.journal.Close()
}
