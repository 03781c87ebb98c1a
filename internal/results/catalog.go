package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// CatalogFile is the catalog of runs, in the directory that holds the run
// directories (runs/ by default).
//
// The catalog is a cache of what the run directories say, never the
// source of truth: List compares it with the directories every time
// (a stat per run), re-reads only runs that are new or changed, drops
// runs whose directory is gone, and rebuilds it whole when it is missing,
// unreadable or of a newer schema version (an older one is migrated in
// place: catalog_migrate.go). Its worth is that listing a
// hundred runs does not decode a hundred results.json files, some of them
// megabytes.
const CatalogFile = "catalog.db"

// CatalogEntry is one run as the catalog lists it.
type CatalogEntry struct {
	// Path is the run directory relative to the catalog's directory,
	// slash-separated ("20250101T120000Z-wisconsin",
	// "20250101T120000Z-quickstart/sqlite/run").
	Path          string
	Experiment    string
	Engine        string
	EngineVersion string
	// Started is zero when the run has no manifest (then the directory's
	// time is used, if any); Finished is nil while the run has not
	// finished (or crashed before it could say so).
	Started  time.Time
	Finished *time.Time
	// HasResults tells whether results.json is there; Complete and Error
	// are its fields: a complete run, or what failed. Error also says why
	// a run directory could not be read.
	HasResults bool
	Complete   bool
	Error      string
	Dbgauge    string
	Command    []string
	Headline   Headline
	// Tags are the manifest's (sorted; nil for none).
	Tags  []string
	stamp int64
}

// Status is one word for the run: complete, failed, unfinished (no
// results.json yet: running, or killed) or incomplete.
func (e CatalogEntry) Status() string {
	switch {
	case e.Complete:
		return "complete"
	case e.Error != "":
		return "failed"
	case !e.HasResults:
		return "unfinished"
	}
	return "incomplete"
}

// errUnreadable marks a catalog that is not a usable database.
var errUnreadable = errors.New("catalog unreadable")

// RegisterIn records the run directory runDir in the catalog of root (the
// directory of runs, an ancestor of runDir: runs/ for runs/X, and for
// quickstart's runs/X/sqlite/run too), creating the catalog if it is
// missing; registering a run again replaces its row. Call it when a run
// ends, whether it succeeded or not. It is safe to call from several
// processes at once (the catalog lock, SQLite's locking, one transaction
// per call).
func RegisterIn(root, runDir string) error {
	rel, err := relPath(root, runDir)
	if err != nil {
		return fmt.Errorf("register %s: %w", runDir, err)
	}
	if !IsRunDir(runDir) {
		return fmt.Errorf("register %s: not a run directory (neither %s nor %s)", runDir, ResultsFile, ManifestFile)
	}
	e := readEntry(root, rel)
	err = withCatalogLock(root, func() error {
		err := insert(root, e)
		if unreadable(err) {
			_, err = rebuild(root) // finds runDir with the others
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("register %s: %w", runDir, err)
	}
	return nil
}

// RegisterNearest records runDir again in the catalog that lists it: the
// nearest directory above it, up to scanDepth levels, that holds a
// catalog. Without one there is nothing to do (listing the directory of
// runs reads the run afresh anyway).
func RegisterNearest(runDir string) error {
	abs, err := filepath.Abs(runDir)
	if err != nil {
		return err
	}
	for root, i := filepath.Dir(abs), 0; i < scanDepth; root, i = filepath.Dir(root), i+1 {
		if st, err := os.Stat(filepath.Join(root, CatalogFile)); err == nil && st.Mode().IsRegular() {
			return RegisterIn(root, abs)
		}
	}
	return nil
}

// insert adds or replaces one row of root's catalog.
func insert(root string, e CatalogEntry) error {
	db, err := openCatalog(root)
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := upsert(tx, e); err != nil {
		return err
	}
	return tx.Commit()
}

// List returns the runs under root, newest first, bringing the catalog up
// to date with the directories first (see CatalogFile). root must exist.
// Where the catalog can be neither used nor rebuilt (a read-only
// directory of runs), the runs are listed from their directories alone.
func List(root string) ([]CatalogEntry, error) {
	if st, err := os.Stat(root); err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("list runs: %s is not a directory", root)
	}
	entries, err := listCataloged(root)
	if err == nil {
		return entries, nil
	}
	dirs, serr := scanRuns(root)
	if serr != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	entries = make([]CatalogEntry, len(dirs))
	for i, rel := range dirs {
		entries[i] = readEntry(root, rel)
	}
	sort.SliceStable(entries, func(i, j int) bool {
		if !entries[i].Started.Equal(entries[j].Started) {
			return entries[i].Started.After(entries[j].Started)
		}
		return entries[i].Path < entries[j].Path
	})
	return entries, nil
}

// listCataloged lists through the catalog: brought up to date, or rebuilt
// when it is unreadable.
func listCataloged(root string) (entries []CatalogEntry, err error) {
	err = withCatalogLock(root, func() error {
		db, err := openCatalog(root)
		if err == nil {
			entries, err = refresh(db, root)
			db.Close()
			if err == nil {
				return nil
			}
		}
		if !unreadable(err) {
			return err
		}
		entries, err = rebuild(root)
		return err
	})
	return entries, err
}

// relPath is runDir relative to root, slash-separated; runDir must lie
// below root.
func relPath(root, runDir string) (string, error) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	absRun, err := filepath.Abs(runDir)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(absRoot, absRun)
	if err != nil {
		return "", err
	}
	if rel == "." || rel == ".." || filepath.IsAbs(rel) || len(rel) > 2 && rel[:3] == ".."+string(filepath.Separator) {
		return "", fmt.Errorf("%s is not below the directory of runs %s", runDir, root)
	}
	return filepath.ToSlash(rel), nil
}
