package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/results"
)

// TestResumeABTestKilled: an A/B test killed with SIGKILL in the middle of
// its first query (its warm pairs done, its cold ones under way) resumes
// from the first pair that did not complete: every pair and query
// completes exactly once over both parts, the completed pairs are kept
// (not measured again) and the results hold an uninterrupted run's
// queries: the same statements (seeds), cache modes, statuses, rows and
// number of pairs.
func TestResumeABTestKilled(t *testing.T) {
	tmp := t.TempDir()
	args := func(out string) []string {
		return []string{"abtest", "--a-session", "PRAGMA cache_size=100", "--b-session", "PRAGMA cache_size=-20000",
			"--wisconsin", "1,9,3", "--size", "1000", "--reps", "12", "--cache", "both", "--seed", "5", "--out", out}
	}
	type run struct {
		Cache  string    `json:"cache"`
		Status string    `json:"status"`
		Rows   int64     `json:"rows"`
		AMS    []float64 `json:"a_ms"`
		BMS    []float64 `json:"b_ms"`
	}
	type query struct {
		Label    string `json:"label"`
		SQL      string `json:"sql"`
		Expected int64  `json:"expected_rows"`
		Runs     []run  `json:"runs"`
	}
	type stored struct {
		Complete bool        `json:"complete"`
		Resumed  []time.Time `json:"resumed"`
		Queries  []query     `json:"queries"`
	}
	whole := filepath.Join(tmp, "whole")
	if code, _, stderr := runBinary(t, args(whole)...); code != 0 {
		t.Fatalf("uninterrupted run: exit %d\n%s", code, stderr)
	}
	want := readJSON[stored](t, filepath.Join(whole, results.ResultsFile))
	units := len(unitsDone(t, whole)) // 3 queries of 2 x 12 pairs, and the queries
	if units != 3*(2*12+1) {
		t.Fatalf("uninterrupted run: %d units, want %d", units, 3*(2*12+1))
	}

	dir := filepath.Join(tmp, "killed")
	killAt(t, args(dir), "Q1     warm")
	done := unitsDone(t, dir)
	// Q1's 12 cold pairs (each with its caches emptied) follow its warm
	// line: SIGKILL comes long before they end.
	if done["Q1 warm pair 12"] != 1 || done["Q1"] != 0 {
		t.Fatalf("killed run: units %v: want it stopped within Q1's cold pairs", done)
	}
	code, stdout, stderr := runBinary(t, "resume", dir)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "resuming "+dir) {
		t.Errorf("resume did not say what it continues:\n%s", stderr)
	}
	onceEach(t, dir, units)
	got := readJSON[stored](t, filepath.Join(dir, results.ResultsFile))
	if !got.Complete || len(got.Resumed) != 1 {
		t.Errorf("resumed run: complete %v, resumed %v", got.Complete, got.Resumed)
	}
	if len(got.Queries) != len(want.Queries) {
		t.Fatalf("%d queries, want %d", len(got.Queries), len(want.Queries))
	}
	for i, w := range want.Queries {
		g := got.Queries[i]
		if g.Label != w.Label || g.SQL != w.SQL || g.Expected != w.Expected || len(g.Runs) != len(w.Runs) {
			t.Errorf("query %d: got %s %q (%d rows expected, %d cache modes), want %s %q (%d, %d)", i, g.Label, g.SQL, g.Expected, len(g.Runs), w.Label, w.SQL, w.Expected, len(w.Runs))
			continue
		}
		for j, wr := range w.Runs {
			gr := g.Runs[j]
			if gr.Cache != wr.Cache || gr.Status != wr.Status || gr.Rows != wr.Rows || len(gr.AMS) != len(wr.AMS) || len(gr.BMS) != len(wr.BMS) {
				t.Errorf("%s %s: got %s %s %d rows %d/%d pairs, want %s %s %d rows %d/%d pairs", g.Label, wr.Cache,
					gr.Cache, gr.Status, gr.Rows, len(gr.AMS), len(gr.BMS), wr.Cache, wr.Status, wr.Rows, len(wr.AMS), len(wr.BMS))
			}
		}
	}
}

// TestResumeSpeedupKilled: a speedup run over two page sizes killed with
// SIGKILL in the middle of its first page size resumes with that page
// size's database created and loaded again, its completed points kept
// (not measured again) and the others measured: every point completes
// exactly once over both parts, and the curves hold an uninterrupted
// run's queries (the same statements: seeds), page sizes, rows and
// repetitions.
func TestResumeSpeedupKilled(t *testing.T) {
	tmp := t.TempDir()
	args := func(out string) []string {
		return []string{"speedup", "--page-sizes", "1KiB,4KiB", "--size", "1000", "--reps", "2", "--seed", "7", "--out", out}
	}
	type point struct {
		X       int64     `json:"x"`
		TimesMS []float64 `json:"times_ms"`
		Rows    int64     `json:"rows"`
		Page    int64     `json:"page_bytes"`
		Error   string    `json:"error"`
	}
	type curve struct {
		Query    int     `json:"query"`
		Org      string  `json:"organization"`
		SQL      string  `json:"sql"`
		Expected int64   `json:"expected_rows"`
		Points   []point `json:"points"`
	}
	type stored struct {
		Complete bool        `json:"complete"`
		Resumed  []time.Time `json:"resumed"`
		Pages    struct {
			Curves []curve `json:"curves"`
		} `json:"page_sizes"`
	}
	whole := filepath.Join(tmp, "whole")
	if code, _, stderr := runBinary(t, args(whole)...); code != 0 {
		t.Fatalf("uninterrupted run: exit %d\n%s", code, stderr)
	}
	want := readJSON[stored](t, filepath.Join(whole, results.ResultsFile))
	units := len(unitsDone(t, whole))
	if units != 2*18 {
		t.Fatalf("uninterrupted run: %d points, want 2 page sizes x 18 queries", units)
	}

	dir := filepath.Join(tmp, "killed")
	killAt(t, args(dir), "Q12 joinAselB (clustered, unique2)                 x=1024")
	if n := len(unitsDone(t, dir)); n < 9 || n >= 18 {
		t.Fatalf("killed run: %d points complete: want it stopped within the first page size", n)
	}
	code, stdout, stderr := runBinary(t, "resume", dir)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// Q4 completed before Q12's line (Q12's own completion may not have
	// been journalled when SIGKILL came).
	if !strings.Contains(stderr, "Q4 10% selection (clustered, unique2)              x=1024       complete before the run was resumed: kept") {
		t.Errorf("resume did not keep Q4 at 1 KiB:\n%s", stderr)
	}
	onceEach(t, dir, units)
	got := readJSON[stored](t, filepath.Join(dir, results.ResultsFile))
	if !got.Complete || len(got.Resumed) != 1 {
		t.Errorf("resumed run: complete %v, resumed %v", got.Complete, got.Resumed)
	}
	if len(got.Pages.Curves) != len(want.Pages.Curves) {
		t.Fatalf("%d curves, want %d", len(got.Pages.Curves), len(want.Pages.Curves))
	}
	for i, w := range want.Pages.Curves {
		g := got.Pages.Curves[i]
		if g.Query != w.Query || g.Org != w.Org || g.SQL != w.SQL || g.Expected != w.Expected || len(g.Points) != len(w.Points) {
			t.Errorf("curve %d: got Q%d %s %q %d rows %d points, want Q%d %s %q %d rows %d points", i,
				g.Query, g.Org, g.SQL, g.Expected, len(g.Points), w.Query, w.Org, w.SQL, w.Expected, len(w.Points))
			continue
		}
		for j, wp := range w.Points {
			gp := g.Points[j]
			if gp.X != wp.X || gp.Rows != wp.Rows || gp.Page != wp.Page || gp.Error != wp.Error || len(gp.TimesMS) != len(wp.TimesMS) {
				t.Errorf("curve %d point %d: got %+v, want %+v", i, j, gp, wp)
			}
		}
	}
}

// TestResumeWisconsinProtocolKilled: a wisconsin run under the timing
// protocol killed with SIGKILL once the first query result of its second
// size is stored resumes like one without it, and the protocol's analysis
// at the end covers every query result: those taken back from the
// journal (their Q@Cs journalled whole) and those measured after the
// resume, as in an uninterrupted run.
func TestResumeWisconsinProtocolKilled(t *testing.T) {
	tmp := t.TempDir()
	args := func(out string) []string {
		return []string{"wisconsin", "--size", "1000,2000", "--reps", "6", "--queries", "1-4", "--seed", "3", "--protocol", "ttp", "--out", out}
	}
	type query struct {
		Size     int64           `json:"size"`
		Query    int             `json:"query"`
		Status   string          `json:"status"`
		Rows     int64           `json:"rows"`
		Computed *map[string]any `json:"computed_ms"`
	}
	type stored struct {
		Complete bool           `json:"complete"`
		Resumed  []time.Time    `json:"resumed"`
		Queries  []query        `json:"queries"`
		Protocol map[string]any `json:"protocol"`
	}
	whole := filepath.Join(tmp, "whole")
	if code, _, stderr := runBinary(t, args(whole)...); code != 0 {
		t.Fatalf("uninterrupted run: exit %d\n%s", code, stderr)
	}
	want := readJSON[stored](t, filepath.Join(whole, results.ResultsFile))

	dir := filepath.Join(tmp, "killed")
	killAt(t, args(dir), "N=2000      Q1 ")
	if n := len(unitsDone(t, dir)); n < 4 || n >= len(want.Queries) {
		t.Fatalf("killed run: %d of %d query results complete: want it stopped within size 2000", n, len(want.Queries))
	}
	code, stdout, stderr := runBinary(t, "resume", dir)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
	onceEach(t, dir, len(want.Queries))
	got := readJSON[stored](t, filepath.Join(dir, results.ResultsFile))
	if !got.Complete || len(got.Resumed) != 1 || got.Protocol == nil {
		t.Fatalf("resumed run: complete %v, resumed %v, protocol %v", got.Complete, got.Resumed, got.Protocol != nil)
	}
	if len(got.Queries) != len(want.Queries) {
		t.Fatalf("%d query results, want %d", len(got.Queries), len(want.Queries))
	}
	for i, w := range want.Queries {
		g := got.Queries[i]
		if g.Size != w.Size || g.Query != w.Query || g.Status != w.Status || g.Rows != w.Rows || (g.Computed == nil) != (w.Computed == nil) {
			t.Errorf("query result %d: got N=%d Q%d %s %d rows computed %v, want N=%d Q%d %s %d rows computed %v", i,
				g.Size, g.Query, g.Status, g.Rows, g.Computed != nil, w.Size, w.Query, w.Status, w.Rows, w.Computed != nil)
		}
	}
}

// TestResumeABTestHiddenURLs: an A/B test between two servers whose URLs
// carry passwords (hidden in its manifest) takes the URLs again from
// `dbgauge resume DIR --a URL --b URL`; without them the resume is
// refused, naming the flag; a URL of another server is refused too.
func TestResumeABTestHiddenURLs(t *testing.T) {
	stored := map[string]any{
		"a":    []any{"postgres://u:***@127.0.0.1:1/db"},
		"b":    []any{"postgres://u:***@127.0.0.1:2/db"},
		"seed": "1",
	}
	progress := &results.Progress{Dir: t.TempDir(), Manifest: &results.Manifest{Experiment: "abtest", Config: stored}}
	given := map[string]string{"a": "[postgres://u:secret@127.0.0.1:1/db]", "b": "[postgres://u:secret@127.0.0.1:2/db]"}
	plan, _, err := storedPlan(newABTestFlags(), progress, given)
	if err != nil {
		t.Fatalf("URLs given again: %v", err)
	}
	if plan.A.URL != "postgres://u:secret@127.0.0.1:1/db" || plan.B.URL != "postgres://u:secret@127.0.0.1:2/db" {
		t.Errorf("variants %q and %q: want the URLs given again", plan.A.URL, plan.B.URL)
	}
	if _, _, err := storedPlan(newABTestFlags(), progress, map[string]string{"a": given["a"]}); err == nil || !strings.Contains(err.Error(), "dbgauge resume DIR --b URL") {
		t.Errorf("--b not given: %v, want it asked for", err)
	}
	other := map[string]string{"a": given["a"], "b": "[postgres://u:secret@127.0.0.1:3/db]"}
	if _, _, err := storedPlan(newABTestFlags(), progress, other); err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("another server for B: %v, want it refused without its password", err)
	}
}
