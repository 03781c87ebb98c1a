package htmlreport

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/dbgauge/dbgauge/internal/dbms/all"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	_ "github.com/dbgauge/dbgauge/internal/workload/all"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// quickstartEngines are the engines dbgauge quickstart runs, in its order.
var quickstartEngines = []string{"sqlite", "duckdb"}

// quickstartDir does what dbgauge quickstart does, on six queries instead
// of 32: the Wisconsin suite at N = 1000 on SQLite and DuckDB into
// dir/<engine>/run, and each run's own report.html. Q7 runs under the hash
// organisation too, which neither engine has: a not-applicable row.
func quickstartDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	plan := experiment.WisconsinPlan{Sizes: []int64{1000}, Reps: 3, Orgs: w.Orgs, Dests: []string{results.DestRelation},
		Queries: []int{1, 7, 9, 20, 23, 26}, Seed: 1, Limit: 2 * time.Minute}
	for _, eng := range quickstartEngines {
		engDir := filepath.Join(dir, eng)
		if err := os.MkdirAll(engDir, 0o755); err != nil {
			t.Fatal(err)
		}
		setup := experiment.WisconsinSetup{DB: fmt.Sprintf("%s:%s", eng, filepath.Join(engDir, eng+".db")), Dir: filepath.Join(engDir, "run"),
			Command: []string{"dbgauge", "quickstart", "--size", "1000"}, Version: "test"}
		if _, err := experiment.RunWisconsin(context.Background(), setup, plan, progress.New(nil)); err != nil {
			t.Fatalf("%s: %v", eng, err)
		}
		page, err := Build(setup.Dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(setup.Dir, "report.html"), page, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The quickstart page of real runs, checked against results.json by hand.
func TestQuickstartOnRealRuns(t *testing.T) {
	dir := quickstartDir(t)
	var res []*results.WisconsinResults
	for _, eng := range quickstartEngines {
		var r results.WisconsinResults
		readResults(t, filepath.Join(dir, eng, "run"), &r)
		res = append(res, &r)
	}

	t.Run("page", func(t *testing.T) {
		d, err := Quickstart(dir, dir)
		if err != nil {
			t.Fatal(err)
		}
		page := checkPage(t, d)
		v := parseEnginesView(t, page)
		if want := []string{res[0].Engine + " " + res[0].EngineVersion, res[1].Engine + " " + res[1].EngineVersion}; !slices.Equal(v.engines, want) {
			t.Fatalf("columns %q, want %q (the order the quickstart ran them)", v.engines, want)
		}
		want := byHand(t, res)
		want.check(t, v)
		if len(v.rows) != len(res[0].Queries) {
			t.Errorf("%d rows, want one per query result (%d)", len(v.rows), len(res[0].Queries))
		}
		na := v.row(t, 7, "hash")
		for j, c := range na.cells {
			if c.text != "n/a" || c.hasMS {
				t.Errorf("Q7 hash on %s: %+v, want n/a without a time", v.engines[j], c)
			}
		}

		// the headlines: what ran, then each engine's mean and checks
		if h := headline(t, d, "Wisconsin benchmark"); h.Value != "N = 1000" {
			t.Errorf("what ran: %+v", h)
		}
		for j, r := range res {
			h := headline(t, d, v.engines[j]+": relative time")
			if h.Value != ratioByHand(want.geo[j]) {
				t.Errorf("%s headline %q, want %s", v.engines[j], h.Value, ratioByHand(want.geo[j]))
			}
			ok := 0
			for _, q := range r.Queries {
				if q.Status == results.StatusOK {
					ok++
				}
			}
			if checks := fmt.Sprintf("%d ok, 0 failed, 1 n/a", ok); !strings.Contains(h.Note, checks) {
				t.Errorf("%s headline note %q lacks %q", v.engines[j], h.Note, checks)
			}
		}

		// the diagram: one bar per median, each carrying it
		var medians, bars []float64
		for _, r := range res {
			for _, q := range r.Queries {
				if q.Status == results.StatusOK {
					medians = append(medians, q.ElapsedMS.Median)
				}
			}
		}
		for _, s := range d.Sections {
			bars = append(bars, dataRects(string(s.SVG))...)
		}
		slices.Sort(medians)
		slices.Sort(bars)
		if !slices.Equal(bars, medians) {
			t.Errorf("diagram bars %v, want the medians %v", bars, medians)
		}

		checkScripts(t, d, page, v, res)
		checkLinks(t, page, dir, []string{"sqlite/run/report.html", "duckdb/run/report.html"})
	})

	// A query result that failed its cardinality check (recorded as the
	// experiment records one: TestMismatchIsReported in experiment) is
	// left out of the summary for every engine; its cell says why.
	t.Run("failed query left out", func(t *testing.T) {
		var bad results.WisconsinResults
		readResults(t, filepath.Join(dir, "duckdb", "run"), &bad)
		i := slices.IndexFunc(bad.Queries, func(q results.QueryResult) bool { return q.Query == 9 && q.Status == results.StatusOK })
		if i < 0 {
			t.Fatal("no ok Q9 in the DuckDB run")
		}
		q := &bad.Queries[i]
		q.Status, q.Rows = results.StatusMismatch, q.ExpectedRows-1
		q.Reason = fmt.Sprintf("repetition 1 returned %d rows, expected %d", q.Rows, q.ExpectedRows)
		runs := []*Run{loadRun(t, filepath.Join(dir, "sqlite", "run")), loadRun(t, withResults(t, filepath.Join(dir, "duckdb", "run"), &bad))}
		d, err := Engines(runs)
		if err != nil {
			t.Fatal(err)
		}
		page := checkPage(t, d)
		v := parseEnginesView(t, page)
		want := byHand(t, []*results.WisconsinResults{res[0], &bad})
		all := byHand(t, res)
		if want.common != all.common-1 {
			t.Errorf("%d common queries with Q9 failed on DuckDB, want %d", want.common, all.common-1)
		}
		want.check(t, v)
		row := v.row(t, 9, "heap")
		if c := row.cells[1]; c.text != "MISMATCH" || c.hasMS {
			t.Errorf("failed Q9 on DuckDB: %+v", c)
		}
		if c := row.cells[0]; c.rel != "×1.00" {
			t.Errorf("Q9 on SQLite, the only engine that answered it, is %s, want ×1.00", c.rel)
		}
		if warned(d, "Q9 (heap, relation): MISMATCH") != 1 {
			t.Errorf("no warning of the failed Q9 in %q", d.Warnings)
		}
	})

	// Copied elsewhere, the directory's page links the same relative
	// paths, and they resolve in the copy.
	t.Run("copied directory", func(t *testing.T) {
		moved := filepath.Join(t.TempDir(), "elsewhere")
		if err := os.CopyFS(moved, os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
		d, err := Quickstart(moved, moved)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Render(d)
		if err != nil {
			t.Fatal(err)
		}
		checkLinks(t, string(b), moved, []string{"sqlite/run/report.html", "duckdb/run/report.html"})
	})

	t.Run("not a quickstart directory", func(t *testing.T) {
		if _, err := Quickstart(filepath.Join(dir, "sqlite"), dir); err == nil {
			t.Error("a directory without <engine>/run gave a page")
		}
	})
}

// handResult is the engines view computed by hand from results.json.
type handResult struct {
	engines int
	// medians of the ok results, by query and organisation, per engine
	medians map[string][]float64
	geo     []float64
	common  int
	// answered per engine and the number of rows
	answered []int
	rows     int
}

// byHand computes, from the results alone, what the page must say: per
// query the medians; over the queries every engine answered, the
// geometric mean of (median + 10 ms) / (fastest + 10 ms).
func byHand(t *testing.T, res []*results.WisconsinResults) handResult {
	t.Helper()
	h := handResult{engines: len(res), medians: map[string][]float64{}, geo: make([]float64, len(res)), answered: make([]int, len(res))}
	for j, r := range res {
		for _, q := range r.Queries {
			k := fmt.Sprintf("Q%d %s", q.Query, q.Organization)
			if h.medians[k] == nil {
				h.medians[k] = make([]float64, len(res))
				for i := range res {
					h.medians[k][i] = math.NaN()
				}
			}
			if q.Status == results.StatusOK {
				h.medians[k][j] = q.ElapsedMS.Median
				h.answered[j]++
			}
		}
	}
	h.rows = len(h.medians)
	sums := make([]float64, len(res))
	for _, m := range h.medians {
		best := math.Inf(1)
		for _, x := range m {
			best = math.Min(best, x) // NaN if any engine did not answer
		}
		if math.IsNaN(best) {
			continue
		}
		h.common++
		for j := range m {
			sums[j] += math.Log((m[j] + 10) / (best + 10))
		}
	}
	for j := range sums {
		h.geo[j] = math.Exp(sums[j] / float64(h.common))
	}
	return h
}

// check compares the page's view with the hand computation: each ok
// cell's median and its ratio to the row's fastest, ×1.00 for the
// fastest, the geometric means and how many queries they are over.
func (h handResult) check(t *testing.T, v pageView) {
	t.Helper()
	if len(v.rows) != h.rows {
		t.Errorf("%d rows on the page, %d query results by hand", len(v.rows), h.rows)
	}
	for _, row := range v.rows {
		m, ok := h.medians[row.key]
		if !ok {
			t.Errorf("row %q is not in the results", row.label)
			continue
		}
		best := math.Inf(1)
		for _, x := range m {
			if !math.IsNaN(x) {
				best = math.Min(best, x)
			}
		}
		for j, c := range row.cells {
			if math.IsNaN(m[j]) {
				if c.hasMS || c.rel != "" {
					t.Errorf("%s on %s: a time where the results have none: %+v", row.label, v.engines[j], c)
				}
				continue
			}
			if c.ms != m[j] {
				t.Errorf("%s on %s: median %v, results.json says %v", row.label, v.engines[j], c.ms, m[j])
			}
			ratio := m[j] / best
			if want := ratioByHand(ratio); c.rel != want {
				t.Errorf("%s on %s: %s, want %s (%v / %v)", row.label, v.engines[j], c.rel, want, m[j], best)
			}
			if m[j] == best && c.rel != "×1.00" {
				t.Errorf("%s: the fastest, %s, shows %s", row.label, v.engines[j], c.rel)
			}
		}
	}
	if v.common != h.common {
		t.Errorf("summary over %d queries, %d by hand", v.common, h.common)
	}
	for j := range h.geo {
		s := v.summary[j]
		if math.Abs(s.geo-h.geo[j]) > 1e-9*h.geo[j] || s.rel != ratioByHand(h.geo[j]) {
			t.Errorf("%s: geometric mean %v (%s), %v by hand", v.engines[j], s.geo, s.rel, h.geo[j])
		}
		if want := fmt.Sprintf("%d of %d", h.answered[j], h.rows); s.answered != want {
			t.Errorf("%s answered %q, want %q", v.engines[j], s.answered, want)
		}
	}
}

// ratioByHand writes a ratio as the page promises: ×1.00 to ×9.99, ×10.0
// to ×99.9, then ×100 and above.
func ratioByHand(r float64) string {
	switch {
	case r < 10:
		return fmt.Sprintf("×%.2f", r)
	case r < 100:
		return fmt.Sprintf("×%.1f", r)
	}
	return fmt.Sprintf("×%.0f", r)
}

// pageView is the engines view as read back from the page.
type pageView struct {
	engines []string
	rows    []pageRow
	summary map[int]pageScore // by engine
	common  int
}

type pageRow struct {
	label, key string // key: "Q9 heap"
	cells      []pageCell
}

type pageCell struct {
	hasMS bool
	ms    float64
	rel   string // "×1.09"; "" when the cell has no time
	text  string // what a cell without a time says
}

type pageScore struct {
	geo      float64
	rel      string
	answered string
}

var (
	reHead    = regexp.MustCompile(`<th data-engine="(\d+)">([^<]*)</th>`)
	reRow     = regexp.MustCompile(`<tr data-row="\d+"><td><label><input [^>]*> ([^<]*)</label></td>(.*?)</tr>`)
	reCell    = regexp.MustCompile(`<td data-engine="(\d+)"([^>]*)>(.*?)</td>`)
	reMS      = regexp.MustCompile(`data-ms="([^"]+)"`)
	reRel     = regexp.MustCompile(`<span class="rel"[^>]*>([^<]*)</span>`)
	reSummary = regexp.MustCompile(`<tr data-engine="(\d+)"><td>[^<]*</td><td [^>]*><span class="rel" data-geo="([^"]*)">([^<]*)</span>.*?<span class="ans">([^<]*)</span>`)
	reCommon  = regexp.MustCompile(`<span id="engines-n">(\d+)</span>`)
	reLabel   = regexp.MustCompile(`^Q(\d+) .*\((\w+)\)$`)
	reScript  = regexp.MustCompile(`(?s)<script[^>]*>(.*?)</script>`)
	reHref    = regexp.MustCompile(`href="([^"]*)"`)
)

// parseEnginesView reads the engines view back from a page.
func parseEnginesView(t *testing.T, page string) pageView {
	t.Helper()
	v := pageView{summary: map[int]pageScore{}}
	for _, m := range reHead.FindAllStringSubmatch(page, -1) {
		v.engines = append(v.engines, unescape(m[2]))
	}
	for _, m := range reRow.FindAllStringSubmatch(page, -1) {
		row := pageRow{label: unescape(m[1])}
		l := reLabel.FindStringSubmatch(row.label)
		if l == nil {
			t.Fatalf("row label %q", row.label)
		}
		row.key = "Q" + l[1] + " " + l[2]
		for _, c := range reCell.FindAllStringSubmatch(m[2], -1) {
			var cell pageCell
			if ms := reMS.FindStringSubmatch(c[2]); ms != nil {
				cell.hasMS = true
				cell.ms, _ = strconv.ParseFloat(ms[1], 64)
			}
			if rel := reRel.FindStringSubmatch(c[3]); rel != nil {
				cell.rel = rel[1]
			} else {
				cell.text = unescape(c[3])
			}
			row.cells = append(row.cells, cell)
		}
		if len(row.cells) != len(v.engines) {
			t.Fatalf("row %q has %d cells for %d engines", row.label, len(row.cells), len(v.engines))
		}
		v.rows = append(v.rows, row)
	}
	for _, m := range reSummary.FindAllStringSubmatch(page, -1) {
		j, _ := strconv.Atoi(m[1])
		geo, _ := strconv.ParseFloat(m[2], 64)
		v.summary[j] = pageScore{geo: geo, rel: m[3], answered: m[4]}
	}
	if len(v.summary) != len(v.engines) {
		t.Fatalf("summary of %d engines for %d columns", len(v.summary), len(v.engines))
	}
	c := reCommon.FindStringSubmatch(page)
	if c == nil {
		t.Fatal("no count of the common queries")
	}
	v.common, _ = strconv.Atoi(c[1])
	return v
}

// row finds the row of query q under organisation org.
func (v pageView) row(t *testing.T, q int, org string) pageRow {
	t.Helper()
	for _, r := range v.rows {
		if r.key == fmt.Sprintf("Q%d %s", q, org) {
			return r
		}
	}
	t.Fatalf("no row Q%d %s", q, org)
	return pageRow{}
}

func unescape(s string) string {
	return strings.NewReplacer("&#39;", "'", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&quot;", `"`).Replace(s)
}

// checkScripts: the selector script is on the page and fetches nothing;
// its data block holds each engine's median of each row.
func checkScripts(t *testing.T, d *Doc, page string, v pageView, res []*results.WisconsinResults) {
	t.Helper()
	if d.Script == "" || !strings.Contains(page, "<script>"+string(d.Script)+"</script>") {
		t.Error("the selector script is not on the page")
	}
	scripts := reScript.FindAllStringSubmatch(page, -1)
	if len(scripts) != 2 {
		t.Errorf("%d script elements, want the data block and the script", len(scripts))
	}
	for _, s := range scripts {
		if strings.Contains(s[1], "http://") || strings.Contains(s[1], "https://") {
			t.Errorf("a script holds an address: %.200s", s[1])
		}
	}
	var data struct {
		ShiftMS float64      `json:"shift_ms"`
		Engines []string     `json:"engines"`
		Rows    [][]*float64 `json:"rows"`
	}
	for _, s := range scripts {
		if strings.HasPrefix(strings.TrimSpace(s[1]), "{") {
			if err := json.Unmarshal([]byte(s[1]), &data); err != nil {
				t.Fatalf("data block: %v", err)
			}
		}
	}
	if data.ShiftMS != 10 || !slices.Equal(data.Engines, v.engines) || len(data.Rows) != len(v.rows) {
		t.Fatalf("data block: shift %v, engines %q, %d rows", data.ShiftMS, data.Engines, len(data.Rows))
	}
	for i, row := range v.rows {
		for j, c := range row.cells {
			got := data.Rows[i][j]
			if (got == nil) == c.hasMS || (got != nil && *got != c.ms) {
				t.Errorf("data of %s on %s: %v, the cell says %+v", row.label, v.engines[j], got, c)
			}
		}
	}
}

// checkLinks: every link of the page is relative and resolves under dir,
// and the wanted ones are there.
func checkLinks(t *testing.T, page, dir string, want []string) {
	t.Helper()
	var hrefs []string
	for _, m := range reHref.FindAllStringSubmatch(page, -1) {
		h := m[1]
		hrefs = append(hrefs, h)
		if strings.HasPrefix(h, "/") || strings.Contains(h, ":") {
			t.Errorf("link %q is not relative", h)
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(h))); err != nil {
			t.Errorf("link %q does not resolve in %s: %v", h, dir, err)
		}
	}
	for _, h := range want {
		if !slices.Contains(hrefs, h) {
			t.Errorf("no link to %s among %q", h, hrefs)
		}
	}
}

// loadRun reads a run directory.
func loadRun(t *testing.T, dir string) *Run {
	t.Helper()
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
