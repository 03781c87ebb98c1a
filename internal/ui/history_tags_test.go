package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// tagRuns tags stored runs of dir as `dbgauge tag` does.
func tagRuns(t *testing.T, dir string, tags map[string][]string) {
	t.Helper()
	for run, add := range tags {
		if _, _, err := results.Retag(filepath.Join(dir, run), add, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHistoryTags checks the tag filter (repeatable: runs carrying every
// tag given, as dbgauge list --tag), alone and with the other filters,
// and that each run's tags are shown as links to the runs that share them.
func TestHistoryTags(t *testing.T) {
	dir := runsDir(t)
	h := newUI(t, Options{Dir: dir})
	get(h, "/") // the catalog, made before the tags: it must follow them
	tagRuns(t, dir, map[string][]string{runA: {"nightly", "pg16"}, runB: {"nightly"}, runDS: {"before-fix"}})
	cases := []listing{
		{"?tag=nightly", []string{runA, runB}},
		{"?tag=nightly&tag=pg16", []string{runA}},
		{"?tag=", []string{runA, runB, runDS}}, // the form's "any"
		{"?tag=before-fix", []string{runDS}},
		{"?tag=before-fix&experiment=wisconsin", nil},
		{"?tag=nightly&from=2026-11-21", []string{runA, runB}},
		{"?tag=unknown", nil},
	}
	checkListed(t, h, cases)
	_, body, _ := get(h, "/?tag=pg16")
	for _, want := range []string{
		`<a class="tag" href="/?tag=nightly">nightly</a> <a class="tag" href="/?tag=pg16">pg16</a>`, // runA's tags, sorted
		`<option>before-fix</option><option>nightly</option><option selected>pg16</option>`,         // every tag in the filter, the chosen one selected
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s:\n%s", want, body)
		}
	}
}
