package htmlreport_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

func runSpeedup(t *testing.T, db string, plan experiment.SpeedupPlan) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	plan.Size, plan.Reps, plan.Seed, plan.Dest = 1000, 2, 1, results.DestRelation
	if _, err := experiment.RunSpeedup(context.Background(), experiment.Setup{Dir: dir, DB: db, Version: "test"}, plan, progress.New(nil)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// SQLite has no intra-query parallelism: the summary says "not applicable"
// with results.json's reason; its page sizes give the best and worst page
// size by the count of queries fastest and slowest there, and the page-size
// diagram.
func TestSpeedupPageSQLite(t *testing.T) {
	dir := runSpeedup(t, "", experiment.SpeedupPlan{Parallelism: []int{1, 2}, Ref: 1, Memory: 1 << 20, PageSizes: []int64{1024, 4096}})
	res := readJSON[results.SpeedupResults](t, filepath.Join(dir, "results.json"))
	d, html := page(t, dir)

	h := headlineOf(t, d, "speedup")
	if h.Value != "not applicable" || h.Note != res.Speedup.Reason || res.Speedup.Reason == "" {
		t.Errorf("speedup headline %+v, reason %q", h, res.Speedup.Reason)
	}
	if s := sectionOf(t, d, "table-parallelism"); !strings.Contains(s.Reading, "Not applicable") {
		t.Errorf("parallelism section: %+v", s)
	}
	best, worst := map[int64]int{}, map[int64]int{}
	for _, c := range res.PageSize.Curves {
		a, b := c.Points[0], c.Points[1] // 1024, 4096
		if a.X != 1024 || b.X != 4096 {
			t.Fatalf("points %d, %d", a.X, b.X)
		}
		if a.MedianMS <= b.MedianMS {
			best[1024]++
			worst[4096]++
		} else {
			best[4096]++
			worst[1024]++
		}
	}
	n := len(res.PageSize.Curves)
	for _, c := range []struct {
		label  string
		counts map[int64]int
	}{{"best page size", best}, {"worst page size", worst}} {
		want, k := "1 KiB", c.counts[1024]
		switch {
		case c.counts[4096] > k:
			want, k = "4 KiB", c.counts[4096]
		case c.counts[4096] == k:
			want = "1 KiB / 4 KiB"
		}
		h := headlineOf(t, d, c.label)
		if h.Value != want || !strings.Contains(h.Note, fmt.Sprintf("for %d of %d queries", k, n)) {
			t.Errorf("%s: %+v, want %s for %d of %d", c.label, h, want, k, n)
		}
	}
	checkDiagram(t, html, "pagesize", "1 KiB", "4 KiB")
	if r := sectionOf(t, d, "pagesize").Reading; !strings.Contains(r, fmt.Sprintf("of %d queries", n)) {
		t.Errorf("page-size reading %q", r)
	}
}

// DuckDB's threads: per query class the speedup at p=2 is results.json's
// (the range over the organisations), with the ideal; the speedup,
// response and memory diagrams are inline svgs; a manifest with fewer
// CPUs than p, a failed point and a wrong cardinality are warned about,
// and only then.
func TestSpeedupPageDuckDB(t *testing.T) {
	dir := runSpeedup(t, "duckdb:"+filepath.Join(t.TempDir(), "s.duckdb"), experiment.SpeedupPlan{
		Parallelism: []int{1, 2}, Ref: 1, Memory: 256 << 20, MemorySweep: []int64{256 << 20, 64 << 20}, SweepP: 1})
	res := readJSON[results.SpeedupResults](t, filepath.Join(dir, "results.json"))
	man := readJSON[results.Manifest](t, filepath.Join(dir, "manifest.json"))
	d, html := page(t, dir)

	lo, hi := map[string]float64{}, map[string]float64{}
	for _, c := range res.Speedup.Curves {
		sp := c.Points[1].Speedup // p=2
		if c.Points[1].X != 2 || !(sp > 0) {
			t.Fatalf("%s: point %+v", c.Class, c.Points[1])
		}
		if _, ok := lo[c.Class]; !ok {
			lo[c.Class], hi[c.Class] = sp, sp
		}
		lo[c.Class], hi[c.Class] = math.Min(lo[c.Class], sp), math.Max(hi[c.Class], sp)
	}
	if len(lo) < 6 {
		t.Fatalf("%d query classes", len(lo))
	}
	for class := range lo {
		h := headlineOf(t, d, class+": speedup at p=2")
		ns := numbers(h.Value)
		near(t, class+" lowest speedup", ns[0], lo[class], 0)
		near(t, class+" highest speedup", ns[len(ns)-1], hi[class], 0)
		if !strings.Contains(h.Note, "against p=1, ideal 2.00") {
			t.Errorf("%s: note %q", class, h.Note)
		}
	}
	checkDiagram(t, html, "speedup", "ideal")
	checkDiagram(t, html, "response")
	checkDiagram(t, html, "memory")
	if r := sectionOf(t, d, "speedup").Reading; !strings.Contains(r, "At p=2 the speedups against p=1 range from") {
		t.Errorf("speedup reading %q", r)
	}
	headlineOf(t, d, "temporary files, memory sweep")
	if man.System.CPUs >= 2 && warned(d, "Caution") {
		t.Errorf("a CPU caution on a machine with %d CPUs for p=2: %q", man.System.CPUs, d.Warnings)
	}
	if warned(d, "failed") || warned(d, "cardinality mismatch") {
		t.Errorf("warnings for a run without the condition: %q", d.Warnings)
	}

	bad := copyRun(t, dir)
	editJSON(t, filepath.Join(bad, "manifest.json"), func(m *results.Manifest) { m.System.CPUs = 1 })
	editJSON(t, filepath.Join(bad, "results.json"), func(s *results.SpeedupResults) {
		c := s.Speedup.Curves
		c[0].Points[1].Error = "boom\nthe engine's advice, several lines"
		c[0].Points[1].TimesMS = nil
		c[1].Points[0].Rows++
	})
	d, _ = page(t, bad)
	c1 := res.Speedup.Curves[1]
	for _, w := range [][]string{
		{"Caution", "up to p=2 on a machine with 1 CPU"},
		{"1 point failed", "at p=2 (boom)"},
		{"cardinality mismatch", fmt.Sprintf("at p=1 returned %d rows, expected %d", c1.Points[0].Rows+1, c1.Expected)},
	} {
		if !warned(d, w...) {
			t.Errorf("no warning with %q: %q", w, d.Warnings)
		}
	}
	if warned(d, "advice") {
		t.Errorf("a warning holds more than an error's first line: %q", d.Warnings)
	}
}
