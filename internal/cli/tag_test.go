package cli

import (
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// manifestOf reads a run's manifest.
func manifestOf(t *testing.T, dir string) results.Manifest {
	t.Helper()
	return readJSON[results.Manifest](t, filepath.Join(dir, results.ManifestFile))
}

// catalogTags is the tags column of a run's row, read from catalog.db
// itself (no listing, which would bring it up to date first).
func catalogTags(t *testing.T, runs, rel string) string {
	t.Helper()
	db, err := sql.Open("sqlite3", filepath.Join(runs, results.CatalogFile))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tags string
	if err := db.QueryRow("SELECT tags FROM runs WHERE path = ?", rel).Scan(&tags); err != nil {
		t.Fatalf("the catalog's row of %s: %v", rel, err)
	}
	return tags
}

// TestTags follows tags on real SQLite runs: --tag (repeatable and
// comma-separated) on an experiment command and on wisconsin, kept in the
// manifest and not in its configuration; dbgauge list --tag (every tag
// given) and its TAGS column; dbgauge tag adding and removing, the
// catalog's row following at once; dbgauge tag refusing a run being
// written with one line and exit 2, changing nothing.
func TestTags(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	os.MkdirAll(runs, 0o755)
	if code, _, stderr := run("list", "--dir", runs); code != 0 { // makes the catalog
		t.Fatalf("list: exit %d: %s", code, stderr)
	}
	a, b := filepath.Join(runs, "a"), filepath.Join(runs, "b")
	if code, _, stderr := run("sizesweep", "--sizes", "150", "--reps", "1", "--warmup", "0", "--tag", "nightly,pg16", "--tag", "host=db2", "--tag", "pg16", "--out", a); code != 0 {
		t.Fatalf("sizesweep: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run("wisconsin", "--size", "1000", "--reps", "1", "--queries", "1", "--org", "heap", "--tag", "nightly", "--out", b); code != 0 {
		t.Fatalf("wisconsin: exit %d: %s", code, stderr)
	}
	for dir, want := range map[string][]string{a: {"host=db2", "nightly", "pg16"}, b: {"nightly"}} {
		m := manifestOf(t, dir)
		if !slices.Equal(m.Tags, want) {
			t.Errorf("%s: manifest tags %v, want %v", dir, m.Tags, want)
		}
		if _, ok := m.Config[tagFlag]; ok {
			t.Errorf("%s: the configuration holds the tags: %v", dir, m.Config)
		}
	}

	list := func(args ...string) string {
		t.Helper()
		code, stdout, stderr := run(append([]string{"list", "--dir", runs}, args...)...)
		if code != 0 {
			t.Fatalf("list %v: exit %d: %s", args, code, stderr)
		}
		return stdout
	}
	listed := func(out string) (dirs []string) {
		for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
			f := strings.Fields(line)
			dirs = append(dirs, f[len(f)-1])
		}
		return dirs
	}
	if out := list(); !strings.Contains(out, "TAGS") || !strings.Contains(out, "host=db2,nightly,pg16") {
		t.Errorf("list does not show the tags:\n%s", out)
	}
	if got := listed(list("--tag", "nightly")); !slices.Equal(got, []string{"b", "a"}) {
		t.Errorf("list --tag nightly: %v, want b and a", got)
	}
	if got := listed(list("--tag", "nightly", "--tag", "pg16")); !slices.Equal(got, []string{"a"}) {
		t.Errorf("list --tag nightly --tag pg16: %v, want a", got)
	}
	if out := list("--tag", "weekly"); out != "no runs\n" {
		t.Errorf("list --tag weekly:\n%s", out)
	}

	code, stdout, stderr := run("tag", b, "+pg16", "-nightly", "before-fix")
	if code != 0 || stdout != b+": before-fix pg16\n" {
		t.Fatalf("tag: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if got := catalogTags(t, runs, "b"); got != `["before-fix","pg16"]` {
		t.Errorf("the catalog's row of b after dbgauge tag: tags %s", got)
	}
	if got := listed(list("--tag", "pg16")); !slices.Equal(got, []string{"b", "a"}) {
		t.Errorf("list --tag pg16 after tagging b: %v", got)
	}
	if code, stdout, _ := run("tag", b); code != 0 || stdout != b+": before-fix pg16\n" {
		t.Errorf("tag without TAG: exit %d, %q", code, stdout)
	}
	if code, stdout, _ := run("tag", b, "-before-fix", "-pg16"); code != 0 || stdout != b+": no tags\n" || catalogTags(t, runs, "b") != "[]" {
		t.Errorf("removing every tag: exit %d, %q, catalog row %s", code, stdout, catalogTags(t, runs, "b"))
	}

	// A run being written holds its journal: dbgauge tag refuses it.
	j, err := results.OpenJournal(filepath.Join(a, results.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(a, results.ManifestFile))
	code, stdout, stderr = run("tag", a, "+x")
	j.Close()
	if code != ExitBadInput || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "another dbgauge process is writing this run") || !strings.Contains(stderr, "wait for it to end") {
		t.Errorf("tag of a run being written: exit %d, stdout %q, stderr %q: want %d and one line", code, stdout, stderr, ExitBadInput)
	}
	if after, _ := os.ReadFile(filepath.Join(a, results.ManifestFile)); string(after) != string(before) {
		t.Error("the refused tag changed the manifest")
	}
}

// TestResumeKeepsTags: a tagged run killed part-way, tagged again while
// stopped, keeps every tag through dbgauge resume.
func TestResumeKeepsTags(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	killAt(t, []string{"sizesweep", "--sizes", "150,50000", "--reps", "1", "--warmup", "0", "--tag", "nightly", "--out", dir}, "N=150       nonclustered")
	if code, _, stderr := run("tag", dir, "+resumed-once"); code != 0 {
		t.Fatalf("tag of the stopped run: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := runBinary(t, "resume", dir); code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readJSON[results.Header](t, filepath.Join(dir, results.ResultsFile))
	if want := []string{"nightly", "resumed-once"}; !slices.Equal(manifestOf(t, dir).Tags, want) || !res.Complete {
		t.Errorf("after resume: tags %v (complete %v), want %v", manifestOf(t, dir).Tags, res.Complete, want)
	}
}
