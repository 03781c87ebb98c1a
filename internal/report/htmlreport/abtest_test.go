package htmlreport_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// The abtest page of a real run on SQLite (two page-cache sizes, warm and
// cold): per query and cache mode the verdict, ratio and interval are
// results.json's, the verdict counts add up, the diagram is an inline svg,
// each cache mode has its table; a wrong cardinality and too few pairs
// are warned about, and only then.
func TestABTestPage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	plan := experiment.ABTestPlan{
		A:         experiment.ABVariantPlan{Session: []string{"PRAGMA cache_size = -2000"}},
		B:         experiment.ABVariantPlan{Session: []string{"PRAGMA cache_size = -64000"}},
		Wisconsin: []int{1, 9}, Size: 1000, Reps: 6, Warmup: 1,
		Caches: []string{"warm", "cold"}, Dest: results.DestClient, Level: 0.95, Seed: 1,
	}
	if _, err := experiment.RunABTest(context.Background(), experiment.Setup{Dir: dir, Version: "test"}, plan, progress.New(nil)); err != nil {
		t.Fatal(err)
	}
	res := readJSON[results.ABTestResults](t, filepath.Join(dir, "results.json"))
	d, html := page(t, dir)

	if h := headlineOf(t, d, "B"); !strings.Contains(h.Note, "PRAGMA cache_size = -64000") {
		t.Errorf("B's headline %+v does not say what B is", h)
	}
	for _, c := range res.Caches {
		count := map[string]int{}
		for _, q := range res.Queries {
			run := q.Run(c)
			if run == nil || run.Comparison == nil {
				t.Fatalf("%s %s: not compared", q.Label, c)
			}
			cmp := run.Comparison
			count[cmp.Verdict]++
			h := headlineOf(t, d, q.Label+" "+c)
			if h.Value != cmp.Verdict {
				t.Errorf("%s %s: verdict %q, results.json %q", q.Label, c, h.Value, cmp.Verdict)
			}
			ns := numbers(h.Note) // ratio, level, low, high, pairs
			if len(ns) != 5 {
				t.Fatalf("%s %s: note %q", q.Label, c, h.Note)
			}
			near(t, q.Label+" ratio", ns[0], cmp.Factor, 0)
			near(t, q.Label+" low", ns[2], cmp.Low, 0)
			near(t, q.Label+" high", ns[3], cmp.High, 0)
			near(t, q.Label+" pairs", ns[4], float64(cmp.Pairs), 0)
		}
		h := headlineOf(t, d, fmt.Sprintf("%s cache, 2 queries: B faster / A faster / no significant difference", c))
		if want := fmt.Sprintf("%d / %d / %d", count[stats.VerdictBFaster], count[stats.VerdictAFaster], count[stats.VerdictNoDiff]); h.Value != want {
			t.Errorf("%s tally %q, want %q", c, h.Value, want)
		}
		tb := sectionOf(t, d, "table-"+c).Table
		if tb == nil || len(tb.Rows) != 3 || tb.Rows[0][0] != "query" || !strings.Contains(strings.Join(tb.Rows[0], " "), " verdict ") {
			t.Errorf("%s table: %+v", c, tb)
		}
		for _, h := range tb.Rows[0] {
			if strings.HasPrefix(h, "warm_") || strings.HasPrefix(h, "cold_") {
				t.Errorf("%s table keeps a prefixed column %q", c, h)
			}
		}
	}
	checkDiagram(t, html, "abtest", "Q1", "Q9", "warm", "cold")
	if r := sectionOf(t, d, "abtest").Reading; !strings.Contains(r, "Warm cache:") || !strings.Contains(r, "Cold cache:") {
		t.Errorf("reading %q does not read both cache modes", r)
	}
	if warned(d, "cardinality mismatch") || warned(d, "too few for a verdict") {
		t.Errorf("warnings for a run without the condition: %q", d.Warnings)
	}

	bad := copyRun(t, dir)
	editJSON(t, filepath.Join(bad, "results.json"), func(a *results.ABTestResults) {
		r := &a.Queries[0].Runs[0]
		r.Status, r.Reason = results.StatusMismatch, "pair 2: B returned 9 rows, expected 10"
		r2 := a.Queries[1].Runs[1].Comparison
		r2.Pairs, r2.Verdict = 2, stats.VerdictTooFew
	})
	d, _ = page(t, bad)
	q0, q1 := res.Queries[0], res.Queries[1]
	if !warned(d, q0.Label+" "+q0.Runs[0].Cache+": cardinality mismatch: pair 2: B returned 9 rows") {
		t.Errorf("no mismatch warning: %q", d.Warnings)
	}
	if !warned(d, q1.Label+" "+q1.Runs[1].Cache+": only 2 pairs, too few for a verdict (at least 6 are needed)") {
		t.Errorf("no too-few-pairs warning: %q", d.Warnings)
	}
}
