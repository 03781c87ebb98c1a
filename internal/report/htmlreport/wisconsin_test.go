package htmlreport

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"

	_ "github.com/dbgauge/dbgauge/internal/dbms/all" // the engines the tests run on
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// wisconsinRun runs three queries (two selections and a join) at N = 1000
// on SQLite in a new run directory.
func wisconsinRun(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	plan := experiment.WisconsinPlan{Sizes: []int64{1000}, Reps: 2, Orgs: []w.Org{w.Heap},
		Dests: []string{results.DestRelation}, Queries: []int{1, 2, 9}, Seed: 1}
	if _, err := experiment.RunWisconsin(context.Background(), experiment.Setup{Dir: dir, Version: "test"}, plan, progress.New(nil)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The Wisconsin page of a real run: the summary says what results.json
// holds, the bars are its medians, the buffer ratio and failed queries
// are warned about exactly when the results carry them.
func TestWisconsinPage(t *testing.T) {
	dir := wisconsinRun(t)
	var res results.WisconsinResults
	readResults(t, dir, &res)
	d := docOf(t, dir)
	checkPage(t, d)

	// the summary, from results.json by hand
	var medians []float64
	slow, fast := math.Inf(-1), math.Inf(1)
	for _, q := range res.Queries {
		if q.Status != results.StatusOK {
			t.Fatalf("Q%d: %s %s", q.Query, q.Status, q.Reason)
		}
		medians = append(medians, q.ElapsedMS.Median)
		slow, fast = math.Max(slow, q.ElapsedMS.Median), math.Min(fast, q.ElapsedMS.Median)
	}
	logs := 0.0
	for _, m := range medians {
		logs += math.Log(m)
	}
	gm := math.Exp(logs / float64(len(medians)))
	checkHeadlines(t, d, map[string]string{
		"N=1000: cardinality check": fmt.Sprintf("%d ok / 0 failed", len(res.Queries)),
		"N=1000: geometric mean":    num(gm) + " ms",
		"N=1000: slowest":           num(slow) + " ms",
		"N=1000: fastest":           num(fast) + " ms",
	})

	// one bar per query, its value the median of results.json
	checkBars(t, d, medians, "the medians")

	// SQLite's 2 MB cache holds a relation of N = 1000 (208 kB): one
	// warning, though the run's own warnings say it too
	if res.BufferRatios[0].Ratio >= handbookRatio {
		t.Fatalf("buffer ratio %v: the test expects a small relation", res.BufferRatios[0].Ratio)
	}
	if n := warned(d, "buffer pool"); n != 1 {
		t.Errorf("%d warnings about the buffer pool, want 1: %q", n, d.Warnings)
	}
	if n := warned(d, "did not complete") + warned(d, "Q1 ("); n != 0 {
		t.Errorf("warnings of a complete run without failures: %q", d.Warnings)
	}

	// a large relation: no buffer warning
	big := res
	big.BufferRatios = []results.BufferRatio{{Size: 1000, RelationBytes: 208000, BufferPoolBytes: 20000, Ratio: 10.4}}
	big.Warnings = nil
	if d := docOf(t, withResults(t, dir, big)); warned(d, "buffer") != 0 {
		t.Errorf("buffer warning at ratio 10.4: %q", d.Warnings)
	}

	// a failed query, a lost run, a cache that could not be emptied
	bad := res
	bad.Queries = slices.Clone(res.Queries)
	bad.Queries[0].Status, bad.Queries[0].Rows, bad.Queries[0].Reason = results.StatusMismatch, 9, "one row short"
	bad.Complete, bad.Error = false, "interrupted"
	bad.Sizes = []int64{1000, 2000} // the second never ran
	bad.CacheFlush = &results.CacheFlush{NotDone: []string{"the engine's cache"}}
	kept := false
	bad.Queries[1].ProtocolRetained, bad.Queries[1].ProtocolDrops = &kept, []string{"too_short"}
	bad.Protocol = &results.Protocol{QEsDroppedPct: 25, QaCsDroppedPct: 50, Deviations: []string{"daemons were left running"}}
	d = docOf(t, withResults(t, dir, bad))
	checkPage(t, d)
	q := bad.Queries[0]
	checkWarnedOnce(t, d, fmt.Sprintf("Q%d (heap, relation): MISMATCH, 9 rows where %d were expected: one row short", q.Query, q.ExpectedRows),
		"did not complete", "interrupted", "cold cache: not emptied: the engine's cache",
		fmt.Sprintf("the timing protocol dropped Q%d (heap, relation): too_short", bad.Queries[1].Query),
		"dropped 25% of the query executions and 50% of the query results", "protocol deviation: daemons were left running")
	if got, want := headline(t, d, "N=1000: cardinality check").Value, fmt.Sprintf("%d ok / 1 failed", len(res.Queries)-1); got != want {
		t.Errorf("cardinality headline %q, want %q", got, want)
	}
	if got, want := headline(t, d, "N=2000: queries").Value, "none measured"; got != want {
		t.Errorf("headline of a size not run %q, want %q", got, want)
	}
	if got, want := headline(t, d, "N=1000: timing protocol").Value, "0 of 1 kept"; got != want {
		t.Errorf("protocol headline %q, want %q", got, want)
	}
	if n := len(dataRects(string(d.Sections[0].SVG))); n != len(res.Queries)-1 {
		t.Errorf("%d bars, want one per query that passed (%d)", n, len(res.Queries)-1)
	}
}
