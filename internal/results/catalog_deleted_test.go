package results_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A run listed complete whose results.json is then deleted is listed
// unfinished: the catalog notices a file that went away, not only one
// that was written last; and a results.json put back with an old time
// is read again too.
func TestCatalogNoticesDeletedResults(t *testing.T) {
	root := copyRuns(t)
	rel := fixtureRuns["sizesweep"]
	run := filepath.Join(root, rel)
	res := filepath.Join(run, "results.json")
	// As a run writes them: results.json, then the manifest (finished).
	older := time.Now().Add(-time.Hour)
	os.Chtimes(res, older, older)
	if err := registerHere(run); err != nil {
		t.Fatal(err)
	}
	if e := find(t, root, rel); e.Status() != "complete" {
		t.Fatalf("before: status %s, want complete", e.Status())
	}
	saved, err := os.ReadFile(res)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(res); err != nil {
		t.Fatal(err)
	}
	if e := find(t, root, rel); e.Status() != "unfinished" || e.HasResults || e.Headline.Label != "" {
		t.Errorf("results.json deleted: status %s, has results %v, headline %q; want unfinished", e.Status(), e.HasResults, e.Headline.Label)
	}
	// Back, but older than the manifest (a copy that kept its time).
	if err := os.WriteFile(res, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-48 * time.Hour)
	os.Chtimes(res, old, old)
	if e := find(t, root, rel); e.Status() != "complete" || !e.HasResults {
		t.Errorf("results.json put back: status %s, want complete", e.Status())
	}
}
