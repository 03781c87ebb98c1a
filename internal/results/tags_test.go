package results_test

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

func TestCheckTag(t *testing.T) {
	for _, ok := range []string{"nightly", "pg16", "before-fix", "a_b", "v1.2", "host:db2", "engine=postgres", "größe", "9", strings.Repeat("x", results.MaxTagLen)} {
		if err := results.CheckTag(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for bad, why := range map[string]string{
		"":                                       "empty",
		"two words":                              "holds ' '",
		"a,b":                                    "holds ','",
		"-old":                                   "begin with a letter or a digit",
		"+new":                                   "begin with a letter or a digit",
		"a/b":                                    "holds '/'",
		"<b>":                                    "begin with",
		strings.Repeat("x", results.MaxTagLen+1): "longer than 64",
	} {
		if err := results.CheckTag(bad); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %v, want a refusal saying %q", bad, err, why)
		}
	}
}

// Retag changes a stored run's manifest and nothing else in it: tags
// added sorted and once, removed again, the file then the same bytes as
// before. A run being written (its journal open) is refused, and so are
// a directory without a manifest and a bad tag, changing nothing.
func TestRetag(t *testing.T) {
	root := copyRuns(t)
	run := filepath.Join(root, fixtureRuns["dsbench"])
	manifest := filepath.Join(run, results.ManifestFile)
	orig, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	tags, changed, err := results.Retag(run, []string{"pg16", "nightly", "pg16"}, nil)
	if err != nil || !changed || !slices.Equal(tags, []string{"nightly", "pg16"}) {
		t.Fatalf("adding: %v %v %v", tags, changed, err)
	}
	s, err := results.ReadRun(run)
	if err != nil || !slices.Equal(s.Manifest.Tags, tags) {
		t.Fatalf("the manifest's tags: %v (%v)", s.Manifest, err)
	}
	if tags, changed, err = results.Retag(run, []string{"nightly"}, []string{"absent"}); err != nil || changed || len(tags) != 2 {
		t.Errorf("a change that changes nothing: %v %v %v", tags, changed, err)
	}
	if tags, changed, err = results.Retag(run, nil, []string{"nightly", "pg16"}); err != nil || !changed || tags != nil {
		t.Errorf("removing: %v %v %v", tags, changed, err)
	}
	if now, _ := os.ReadFile(manifest); string(now) != string(orig) {
		t.Errorf("the manifest differs after adding and removing the tags:\n%s\nwas\n%s", now, orig)
	}

	j, err := results.OpenJournal(filepath.Join(run, results.JournalFile)) // as a run being written holds it
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := results.Retag(run, []string{"x"}, nil); !errors.Is(err, results.ErrRunBusy) {
		t.Errorf("a run being written: %v, want ErrRunBusy", err)
	}
	j.Close()
	if _, _, err := results.Retag(root, []string{"x"}, nil); !errors.Is(err, results.ErrNoManifest) {
		t.Errorf("the directory of runs: %v, want ErrNoManifest", err)
	}
	if _, _, err := results.Retag(run, []string{"two words"}, nil); err == nil {
		t.Error("a bad tag was taken")
	}
	if now, _ := os.ReadFile(manifest); string(now) != string(orig) {
		t.Errorf("a refused change changed the manifest")
	}
}

// A catalog of version 1 (before tags) is migrated in place, not rebuilt:
// its rows stay as they were (a row's headline, changed in the old
// catalog, survives: nothing was read again) and gain the tags of their
// runs' manifests, which a dbgauge without tags listed without them.
func TestCatalogMigratesVersion1(t *testing.T) {
	root := copyRuns(t)
	tagged := fixtureRuns["wisconsin"]
	if _, _, err := results.Retag(filepath.Join(root, tagged), []string{"nightly", "pg16"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := results.List(root); err != nil {
		t.Fatal(err)
	}
	// Make it the catalog the previous dbgauge wrote: schema 1 has no tags column.
	path := filepath.Join(root, results.CatalogFile)
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"ALTER TABLE runs DROP COLUMN tags", "UPDATE runs SET headline = 'from the old catalog'", "PRAGMA user_version = 1"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}

	entries, err := results.List(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		want := []string(nil)
		if e.Path == tagged {
			want = []string{"nightly", "pg16"}
		}
		if !slices.Equal(e.Tags, want) || e.Headline.Text != "from the old catalog" {
			t.Errorf("%s: tags %v, headline %q: want %v and the old catalog's row", e.Path, e.Tags, e.Headline.Text, want)
		}
	}
	after, err := os.Stat(path)
	if err != nil || !os.SameFile(before, after) {
		t.Errorf("the catalog was replaced, not migrated (%v)", err)
	}
	db, _ = sql.Open("sqlite3", path)
	defer db.Close()
	var v int
	db.QueryRow("PRAGMA user_version").Scan(&v)
	if v != 2 {
		t.Errorf("catalog version %d after the migration, want 2", v)
	}
	if got := results.WithTags(entries, []string{"pg16", "nightly"}); len(got) != 1 || got[0].Path != tagged {
		t.Errorf("WithTags pg16, nightly: %v", paths(got))
	}
}
