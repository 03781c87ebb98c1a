package results_test

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// quickstartRun is where the tests put a copy of the Wisconsin run the way
// quickstart nests its runs: <runs>/<quickstart>/sqlite/run.
const quickstartRun = "20250101T000009Z-quickstart/sqlite/run"

// withQuickstart copies the fixture's Wisconsin run to quickstartRun and
// returns every run directory of root, relative and sorted.
func withQuickstart(t *testing.T, root string) []string {
	t.Helper()
	src := filepath.Join(root, fixtureRuns["wisconsin"])
	dst := filepath.Join(root, filepath.FromSlash(quickstartRun))
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"manifest.json", "results.json"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Quickstart also leaves files beside its runs: not runs themselves.
	os.WriteFile(filepath.Join(root, "20250101T000009Z-quickstart", "side_by_side.txt"), []byte("x"), 0o644)
	var dirs []string
	for _, d := range fixtureRuns {
		dirs = append(dirs, d)
	}
	dirs = append(dirs, quickstartRun)
	sort.Strings(dirs)
	return dirs
}

func paths(entries []results.CatalogEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Path)
	}
	sort.Strings(out)
	return out
}

func registerAll(t *testing.T, root string, dirs []string) {
	t.Helper()
	for _, d := range dirs {
		var err error
		if strings.Count(d, "/") == 0 {
			err = registerHere(filepath.Join(root, d))
		} else {
			err = results.RegisterIn(root, filepath.Join(root, filepath.FromSlash(d)))
		}
		if err != nil {
			t.Fatalf("register %s: %v", d, err)
		}
	}
}

// Register every run, list, then lose the catalog, remove a run and damage
// the catalog: the listing follows the directories every time.
func TestCatalogRegisterListRebuild(t *testing.T) {
	root := copyRuns(t)
	dirs := withQuickstart(t, root)
	registerAll(t, root, dirs)
	listed, err := results.List(root)
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(listed); !reflect.DeepEqual(got, dirs) {
		t.Fatalf("listed %v, want %v", got, dirs)
	}
	for i, e := range listed {
		if i > 0 && e.Started.After(listed[i-1].Started) {
			t.Errorf("%s started %v, after %s above it (%v): not newest first", e.Path, e.Started, listed[i-1].Path, listed[i-1].Started)
		}
		if !e.Complete || e.Status() != "complete" || e.Error != "" || !e.HasResults || e.Started.IsZero() || e.Dbgauge != "test" || len(e.Command) < 2 || e.Command[0] != "dbgauge" {
			t.Errorf("%s: %+v", e.Path, e)
		}
		if e.Headline.Label == "" || e.Headline.Text == "" {
			t.Errorf("%s: no headline: %+v", e.Path, e.Headline)
		}
		wantEngine := "sqlite"
		switch e.Experiment {
		case "storage":
			wantEngine = ""
		case "speedup":
			wantEngine = "duckdb"
		}
		if e.Engine != wantEngine || (wantEngine != "" && e.EngineVersion == "") {
			t.Errorf("%s: engine %q %q, want %s", e.Path, e.Engine, e.EngineVersion, wantEngine)
		}
		// Every headline is a number but the A/B verdict counts, and a
		// Q@C run whose protocol kept no Q@C (a busy machine fails its
		// checks), which says so instead of quoting a dropped one.
		noneKept := e.Experiment == "qac" && strings.HasPrefix(e.Headline.Text, "no Q@C kept by the protocol")
		if (e.Headline.Value == nil) != (e.Experiment == "abtest" || noneKept) {
			t.Errorf("%s: headline %+v", e.Path, e.Headline)
		}
	}

	// The catalog is lost: rebuilt from the directories, the same.
	if err := os.Remove(filepath.Join(root, results.CatalogFile)); err != nil {
		t.Fatal(err)
	}
	rebuilt, err := results.List(root)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rebuilt, listed) {
		t.Errorf("rebuilt catalog differs:\n%+v\nwant\n%+v", rebuilt, listed)
	}
	if rows := catalogRows(t, root); rows != len(dirs) {
		t.Errorf("rebuilt catalog.db has %d rows, want %d", rows, len(dirs))
	}

	// A run directory is removed: its row goes.
	if err := os.RemoveAll(filepath.Join(root, fixtureRuns["dsbench"])); err != nil {
		t.Fatal(err)
	}
	after, err := results.List(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(dirs)-1 {
		t.Fatalf("%d runs listed after removing one of %d", len(after), len(dirs))
	}
	for _, e := range after {
		if e.Experiment == "dsbench" {
			t.Errorf("removed run still listed: %+v", e)
		}
	}
	if rows := catalogRows(t, root); rows != len(dirs)-1 {
		t.Errorf("catalog.db has %d rows after removing a run, want %d", rows, len(dirs)-1)
	}

	// The catalog is damaged: rebuilt.
	if err := os.WriteFile(filepath.Join(root, results.CatalogFile), bytes.Repeat([]byte("not a database "), 500), 0o644); err != nil {
		t.Fatal(err)
	}
	repaired, err := results.List(root)
	if err != nil {
		t.Fatalf("list with a corrupt catalog: %v", err)
	}
	if !reflect.DeepEqual(repaired, after) {
		t.Errorf("catalog rebuilt from corruption differs:\n%+v\nwant\n%+v", repaired, after)
	}
	if rows := catalogRows(t, root); rows != len(dirs)-1 {
		t.Errorf("repaired catalog.db has %d rows, want %d", rows, len(dirs)-1)
	}
	// Registering into a damaged catalog repairs it too.
	os.WriteFile(filepath.Join(root, results.CatalogFile), []byte("garbage"), 0o644)
	if err := registerHere(filepath.Join(root, fixtureRuns["wisconsin"])); err != nil {
		t.Fatalf("register into a corrupt catalog: %v", err)
	}
	if rows := catalogRows(t, root); rows != len(dirs)-1 {
		t.Errorf("catalog.db has %d rows after registering into a corrupt one, want %d", rows, len(dirs)-1)
	}
}

// catalogRows counts the rows of root's catalog, read with plain SQL.
func catalogRows(t *testing.T, root string) int {
	t.Helper()
	db, err := sql.Open("sqlite3", filepath.Join(root, results.CatalogFile))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM runs").Scan(&n); err != nil {
		t.Fatalf("catalog.db: %v", err)
	}
	return n
}

// List finds runs nobody registered (no catalog yet, and a run added
// beside a catalog), and registering twice keeps one row.
func TestCatalogFindsUnregisteredRuns(t *testing.T) {
	root := copyRuns(t)
	dirs := withQuickstart(t, root)
	listed, err := results.List(root) // no catalog.db: built from the directories
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(listed); !reflect.DeepEqual(got, dirs) {
		t.Fatalf("listed %v, want %v", got, dirs)
	}
	registerAll(t, root, dirs)
	registerAll(t, root, dirs)
	if rows := catalogRows(t, root); rows != len(dirs) {
		t.Errorf("%d rows after registering every run twice, want %d", rows, len(dirs))
	}
	again, err := results.List(root)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, listed) {
		t.Errorf("listing changed by registering:\n%+v\nwant\n%+v", again, listed)
	}
}

// A run registered before its results.json exists (it crashed, or is
// still running) is unfinished; once results.json is written, List reads
// it again.
func TestCatalogRereadsAChangedRun(t *testing.T) {
	root := copyRuns(t)
	run := filepath.Join(root, fixtureRuns["sizesweep"])
	saved, err := os.ReadFile(filepath.Join(run, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(run, "results.json"))
	if err := registerHere(run); err != nil {
		t.Fatal(err)
	}
	e := find(t, root, fixtureRuns["sizesweep"])
	if e.Status() != "unfinished" || e.HasResults || e.Experiment != "sizesweep" || e.Engine != "sqlite" || e.Headline.Label != "" {
		t.Errorf("run without results.json: status %s, %+v", e.Status(), e)
	}
	if err := os.WriteFile(filepath.Join(run, "results.json"), saved, 0o644); err != nil {
		t.Fatal(err)
	}
	e = find(t, root, fixtureRuns["sizesweep"])
	if e.Status() != "complete" || e.Headline.Label != "scan slope" || e.Headline.Value == nil {
		t.Errorf("after results.json was written: status %s, %+v", e.Status(), e)
	}
	// An unreadable results.json still lists the run, saying so.
	os.WriteFile(filepath.Join(run, "results.json"), []byte("{"), 0o644)
	if e = find(t, root, fixtureRuns["sizesweep"]); e.Status() != "failed" || !strings.HasPrefix(e.Error, "unreadable: ") {
		t.Errorf("corrupt results.json: status %s, error %q", e.Status(), e.Error)
	}
}

func find(t *testing.T, root, path string) results.CatalogEntry {
	t.Helper()
	entries, err := results.List(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Path == path {
			return e
		}
	}
	t.Fatalf("%s not listed", path)
	return results.CatalogEntry{}
}

// Runs finishing at once register concurrently (each with its own
// connection, as separate processes would) without losing a row or
// damaging the catalog; a listing at the same time sees a consistent one.
func TestCatalogConcurrentRegister(t *testing.T) {
	root := copyRuns(t)
	dirs := withQuickstart(t, root)
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(dirs)+4)
	for round := 0; round < 3; round++ {
		for _, d := range dirs {
			wg.Go(func() { errs <- results.RegisterIn(root, filepath.Join(root, filepath.FromSlash(d))) })
		}
		wg.Go(func() {
			_, err := results.List(root)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent register or list: %v", err)
		}
	}
	if rows := catalogRows(t, root); rows != len(dirs) {
		t.Errorf("%d rows after concurrent registering, want %d", rows, len(dirs))
	}
	db, _ := sql.Open("sqlite3", filepath.Join(root, results.CatalogFile))
	defer db.Close()
	var check string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check: %q %v", check, err)
	}
}

// A catalog of a newer schema version is rebuilt, not misread.
func TestCatalogOtherVersionRebuilt(t *testing.T) {
	root := copyRuns(t)
	listed, err := results.List(root)
	if err != nil {
		t.Fatal(err)
	}
	db, _ := sql.Open("sqlite3", filepath.Join(root, results.CatalogFile))
	if _, err := db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	again, err := results.List(root)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, listed) {
		t.Errorf("after a version change:\n%+v\nwant\n%+v", again, listed)
	}
	db, _ = sql.Open("sqlite3", filepath.Join(root, results.CatalogFile))
	defer db.Close()
	var v int
	db.QueryRow("PRAGMA user_version").Scan(&v)
	if v != 2 {
		t.Errorf("catalog version %d after rebuilding, want 2", v)
	}
}

func TestRegisterOutsideTheRunsDirectory(t *testing.T) {
	root := t.TempDir()
	if err := results.RegisterIn(filepath.Join(root, "runs"), filepath.Join(root, "elsewhere", "run")); err == nil {
		t.Error("a run outside the directory of runs was registered")
	}
	empty := filepath.Join(root, "runs", "empty")
	os.MkdirAll(empty, 0o755)
	if err := registerHere(empty); err == nil {
		t.Error("a directory without results.json or manifest.json was registered")
	}
	if _, err := os.Stat(filepath.Join(root, "runs", results.CatalogFile)); err == nil {
		t.Error("registering nothing created a catalog")
	}
	if _, err := results.List(filepath.Join(root, "missing")); err == nil {
		t.Error("listing a missing directory gave no error")
	}
}

// A catalog that cannot be opened (here a directory in its place; a
// read-only directory of runs for a user) does not stop the listing: the
// runs are listed from their directories, in the same order.
func TestCatalogUnusableListsFromDirectories(t *testing.T) {
	root := copyRuns(t)
	withQuickstart(t, root)
	listed, err := results.List(root)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(root, results.CatalogFile))
	if err := os.Mkdir(filepath.Join(root, results.CatalogFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := registerHere(filepath.Join(root, fixtureRuns["wisconsin"])); err == nil {
		t.Error("registered into a catalog that cannot be opened")
	}
	again, err := results.List(root)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, listed) {
		t.Errorf("listed from the directories:\n%+v\nwant\n%+v", again, listed)
	}
}

// registerHere registers a run in the catalog of its parent directory.
func registerHere(run string) error { return results.RegisterIn(filepath.Dir(run), run) }
