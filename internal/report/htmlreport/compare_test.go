package htmlreport

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/plotutil"

	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// cmpByHand is a comparison of three repetitions each, worked out by hand.
// A bootstrap resample of three distinct values has its median at the
// smallest with probability 7/27 (two or three of the draws), so the
// smallest possible ratio min(other)/max(base) comes up in (7/27)^2 = 6.7%
// of the resamples, well past the 2.5% tail: the 95% interval is exactly
// [min(other)/max(base), max(other)/min(base)] (ties only make the ends
// likelier). The ratio is of the middle values. The verdict is too few
// repetitions: the exact Mann-Whitney p-value of 3 against 3 repetitions
// is at least 2/20 = 0.1, whatever the interval says, so "no significant
// difference" would pass off the lack of data as a finding.
type cmpByHand struct {
	ratio, low, high float64
	verdict          string
}

func cmpHand(base, other []float64) cmpByHand {
	b, o := slices.Sorted(slices.Values(base)), slices.Sorted(slices.Values(other))
	return cmpByHand{ratio: o[1] / b[1], low: o[0] / b[2], high: o[2] / b[0], verdict: stats.VerdictTooFew}
}

func cmpNear(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// cmpRow finds the row of key.
func cmpRow(t *testing.T, c *comparison, key string) *compareRow {
	t.Helper()
	for i := range c.rows {
		if c.rows[i].Key == key {
			return &c.rows[i]
		}
	}
	t.Fatalf("no row %s", key)
	return nil
}

// cmpSection finds the section with id.
func cmpSection(t *testing.T, d *Doc, id string) Section {
	t.Helper()
	for _, s := range d.Sections {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("no section %s", id)
	return Section{}
}

// cmpColour is run i's colour in the diagrams, as gonum writes it.
func cmpColour(i int) string {
	r, g, b, _ := plotutil.Color(i).RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}

// cmpCurves counts the curves of colour in an SVG: paths of two or more
// segments drawn 1.5 wide (the data lines, not their legend thumbnails).
func cmpCurves(svg, colour string) int {
	n := 0
	for _, m := range regexp.MustCompile(`<path d="([^"]*)" style="[^"]*stroke:`+colour+`;stroke-width:1.5"`).FindAllStringSubmatch(svg, -1) {
		if strings.Count(m[1], "L") >= 2 {
			n++
		}
	}
	return n
}

// A Wisconsin run on SQLite against one on DuckDB: every query's ratio,
// interval and verdict as worked out by hand from results.json, the loads
// (one value each: too few repetitions), what differs (the engine), and
// the per-query bars, one bar per query a run answered in its colour.
func TestCompareWisconsinEngines(t *testing.T) {
	dir := quickstartDir(t) // N=1000, six queries, three repetitions
	dirs := []string{filepath.Join(dir, "sqlite", "run"), filepath.Join(dir, "duckdb", "run")}
	d, err := Compare(dirs)
	if err != nil {
		t.Fatal(err)
	}
	runs := []*Run{loadRun(t, dirs[0]), loadRun(t, dirs[1])}
	c := newComparison(runs)
	if !slices.Equal(c.labels, []string{"sqlite", "duckdb"}) {
		t.Errorf("labels %v", c.labels)
	}
	counts := map[string]int{}
	answered := []int{0, 0}
	for i, r := range runs {
		for _, q := range r.wisconsin().Queries {
			if q.Status == results.StatusOK {
				answered[i]++
			}
		}
	}
	checked := 0
	for _, a := range runs[0].wisconsin().Queries {
		key := cmpKey("query|%d|%s|%s|%d", a.Query, a.Organization, a.Destination, a.Size)
		row := cmpRow(t, c, key)
		v := row.vs[0]
		var b *results.QueryResult
		for i := range runs[1].wisconsin().Queries {
			if q := &runs[1].wisconsin().Queries[i]; q.Query == a.Query && q.Organization == a.Organization && q.Destination == a.Destination {
				b = q
			}
		}
		if a.Status != results.StatusOK || b == nil || b.Status != results.StatusOK {
			if v.Verdict != stats.VerdictNotComparable || v.Reason == "" {
				t.Errorf("%s: %s / %v: verdict %q (%s)", key, a.Status, b, v.Verdict, v.Reason)
			}
			counts[v.Verdict]++
			continue
		}
		if len(a.SamplesMS) != 3 || len(b.SamplesMS) != 3 {
			t.Fatalf("%s: %d and %d repetitions, the test needs 3", key, len(a.SamplesMS), len(b.SamplesMS))
		}
		h := cmpHand(a.SamplesMS, b.SamplesMS)
		if !cmpNear(v.Ratio, h.ratio) || !cmpNear(v.Low, h.low) || !cmpNear(v.High, h.high) || v.Verdict != h.verdict {
			t.Errorf("%s: ratio %v [%v, %v] %s; by hand %v [%v, %v] %s", key, v.Ratio, v.Low, v.High, v.Verdict, h.ratio, h.low, h.high, h.verdict)
		}
		counts[v.Verdict]++
		checked++
	}
	if checked < 5 {
		t.Errorf("only %d queries compared", checked)
	}
	for _, l := range runs[0].wisconsin().Loads {
		row := cmpRow(t, c, cmpKey("load|%s|%d", l.Relation, l.Size))
		v := row.vs[0]
		if v.Verdict != stats.VerdictTooFew || v.HasInterval() || !cmpNear(v.Ratio, row.per[1].Samples[0]/l.RowsPerS) {
			t.Errorf("load %s: %+v", l.Relation, v)
		}
		counts[v.Verdict]++
	}
	if want := fmt.Sprintf("%d faster · %d slower", counts[stats.VerdictFaster], counts[stats.VerdictSlower]); d.Summary[0].Value != want {
		t.Errorf("summary %q, want %q", d.Summary[0].Value, want)
	}

	differs := cmpSection(t, d, "differs").Table
	var engine []string
	for _, r := range differs.Rows {
		if r[0] == "engine" {
			engine = r
		}
	}
	if len(engine) != 3 || !strings.HasPrefix(engine[1], "sqlite ") || !strings.HasPrefix(engine[2], "duckdb ") {
		t.Errorf("what differs: engine row %q of %q", engine, differs.Rows)
	}
	if differs.Rows[1][0] != "command" {
		t.Errorf("the command lines are not first: %q", differs.Rows[1])
	}

	page := checkPage(t, d)
	bars := string(cmpSection(t, d, "compare_queries_1000").SVG)
	for i := range runs {
		// one bar per answered query, and the legend's square
		if n := strings.Count(bars, "fill:"+cmpColour(i)); n != answered[i]+1 {
			t.Errorf("run %d: %d shapes in its colour, want %d bars and the legend's", i, n, answered[i])
		}
		if !strings.Contains(bars, c.names()[i]) {
			t.Errorf("bars' legend lacks %q", c.names()[i])
		}
	}
	if strings.Count(bars, "fill:"+cmpColour(2)) != 0 {
		t.Error("a third series in the bars")
	}
	table := string(cmpSection(t, d, "metrics").HTML)
	for _, v := range []struct{ verdict, class string }{{stats.VerdictFaster, "better"}, {stats.VerdictSlower, "worse"}, {stats.VerdictNoDiff, "same"}} {
		if n := strings.Count(table, `class="`+v.class+`">`+v.verdict+"<"); n != counts[v.verdict] {
			t.Errorf("table shows %q %d times, want %d", v.verdict, n, counts[v.verdict])
		}
	}
	for _, id := range []string{"summary", "differs", "metrics", "compare_ratios", "method"} {
		if !strings.Contains(page, `id="`+id+`"`) {
			t.Errorf("page lacks section %s", id)
		}
	}
	for _, m := range d.Manifest {
		if strings.Contains(m[1], dir) {
			t.Errorf("the runs are named by their absolute directory: %q", m)
		}
	}
}

// cmpSweep runs a tiny stress sweep (scale 1, three cycles of one second,
// two threads) on SQLite at db ("" is the embedded default).
func cmpSweep(t *testing.T, db string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	plan := experiment.DSBenchPlan{Mode: "tpcb", Form: "", Scales: []int64{1}, Cycles: 3, Duration: time.Second, Nodes: 1, Threads: 2, Conns: 1,
		Confidence: []float64{50, 95, 99}, Seed: 1}
	if _, err := experiment.RunDSBench(context.Background(), experiment.DSBenchSetup{DB: db, Dir: dir, Version: "test"}, plan, progress.New(nil)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Two stress sweeps on SQLite that differ in one setting (synchronous
// NORMAL, the embedded default, against OFF): the rate's ratio, interval
// and verdict from the cycle rates by hand, the latencies' repetitions from
// the HdrHistogram logs, the runs named by the setting, the overlaid rate
// and latency diagrams; a metric with two repetitions gets no interval.
func TestCompareStressSweeps(t *testing.T) {
	off := "sqlite:" + filepath.Join(t.TempDir(), "off.db") + "?_journal_mode=WAL&_busy_timeout=10000&_synchronous=OFF"
	dirs := []string{cmpSweep(t, ""), cmpSweep(t, off)}
	d, err := Compare(dirs)
	if err != nil {
		t.Fatal(err)
	}
	runs := []*Run{loadRun(t, dirs[0]), loadRun(t, dirs[1])}
	c := newComparison(runs)
	if !slices.Equal(c.labels, []string{"synchronous=1", "synchronous=0"}) {
		t.Errorf("labels %v, want the setting that differs", c.labels)
	}
	a, b := runs[0].dsbench().Scales[0], runs[1].dsbench().Scales[0]
	v := cmpRow(t, c, "rate|1").vs[0]
	h := cmpHand(a.Cycles, b.Cycles)
	if !cmpNear(v.Ratio, h.ratio) || !cmpNear(v.Low, h.low) || !cmpNear(v.High, h.high) || v.Verdict != h.verdict {
		t.Errorf("rate: ratio %v [%v, %v] %s; by hand %v [%v, %v] %s (cycles %v and %v)", v.Ratio, v.Low, v.High, v.Verdict, h.ratio, h.low, h.high, h.verdict, a.Cycles, b.Cycles)
	}
	if !cmpNear(stats.Median(a.Cycles), a.MedianTPS) {
		t.Errorf("the rate's median %v is not the run's median_tps %v", stats.Median(a.Cycles), a.MedianTPS)
	}
	for _, key := range []string{"residence50|1", "residence99|1"} {
		row := cmpRow(t, c, key)
		for i, m := range row.per {
			if m == nil || len(m.Samples) != 3 {
				t.Fatalf("%s of run %d: not one value per cycle: %+v", key, i, m)
			}
		}
		// the cycles' quantiles straddle the scale's own, as parts of a whole do
		s := runs[0].dsbench().Scales[0]
		q := residenceQuantile(s, map[string]float64{"residence50|1": 0.5, "residence99|1": 0.99}[key])
		if lo, hi := slices.Min(row.per[0].Samples), slices.Max(row.per[0].Samples); q < lo*0.98 || q > hi*1.02 {
			t.Errorf("%s: cycles %v, the whole scale %v", key, row.per[0].Samples, q)
		}
	}

	page := checkPage(t, d)
	if !strings.Contains(page, "setting synchronous") {
		t.Error("what differs does not name the setting")
	}
	rate := string(cmpSection(t, d, "compare_rate").SVG)
	latency := string(cmpSection(t, d, "compare_latency").SVG)
	for i, name := range c.names() {
		if !strings.Contains(rate, name) || !strings.Contains(latency, name) {
			t.Errorf("a legend lacks %q", name)
		}
		// one scale: one panel with one curve per run
		if n := cmpCurves(latency, cmpColour(i)); n != 1 {
			t.Errorf("latency: run %d has %d curves, want 1", i, n)
		}
	}
	if n := cmpCurves(latency, cmpColour(2)); n != 0 {
		t.Errorf("latency: %d curves of a third run", n)
	}

	// two cycles left: the ratio of the medians, no interval, no verdict
	runs[1].dsbench().Scales[0].Cycles = b.Cycles[:2]
	v = cmpRow(t, newComparison(runs), "rate|1").vs[0]
	if v.Verdict != stats.VerdictTooFew || v.HasInterval() || !cmpNear(v.Ratio, stats.Median(b.Cycles[:2])/stats.Median(a.Cycles)) {
		t.Errorf("two cycles: %+v", v)
	}
}

// cmpFakeRun writes a run directory holding only results.json.
func cmpFakeRun(t *testing.T, json string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "results.json"), []byte(json), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCompareRefuses(t *testing.T) {
	w := cmpFakeRun(t, `{"experiment":"wisconsin","complete":true}`)
	ds := cmpFakeRun(t, `{"experiment":"dsbench","complete":true}`)
	for _, c := range []struct {
		name string
		dirs []string
		want string
	}{
		{"one run", []string{w}, "at least two"},
		{"different experiments", []string{w, ds}, "same experiment"},
		{"not a run", []string{w, t.TempDir()}, "no results.json"},
	} {
		if _, err := Compare(c.dirs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
	// runs without a manifest still compare, and say so
	d, err := Compare([]string{w, w})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(d.Warnings, func(s string) bool { return strings.Contains(s, "manifest.json is missing") }) {
		t.Errorf("warnings %q", d.Warnings)
	}
}

// cmpManifestRun is a run with a manifest of engine and settings, for the
// labels and the "what differs" table.
func cmpManifestRun(dir, engine string, settings map[string]string, flags map[string]any) *Run {
	m := &results.Manifest{Experiment: "dsbench", Command: []string{"dbgauge", "dsbench", "--out", dir}, Config: flags, Started: time.Now()}
	m.Engine.Engine, m.Engine.Version, m.Engine.Settings = engine, "1.0", settings
	return &Run{Dir: dir, Manifest: m, Experiment: "dsbench"}
}

func TestCompareLabelsAndDiffers(t *testing.T) {
	for _, c := range []struct {
		name string
		runs []*Run
		want []string
	}{
		{"engines", []*Run{
			cmpManifestRun("/r/1", "postgres", map[string]string{"fsync": "on"}, nil),
			cmpManifestRun("/r/2", "mariadb", map[string]string{"innodb_flush_log_at_trx_commit": "1"}, nil)},
			[]string{"postgres", "mariadb"}},
		{"a setting; the database path differs too but names nothing", []*Run{
			cmpManifestRun("/r/on", "postgres", map[string]string{"synchronous_commit": "on", "data_directory": "/a"}, nil),
			cmpManifestRun("/r/off", "postgres", map[string]string{"synchronous_commit": "off", "data_directory": "/b"}, nil)},
			[]string{"synchronous_commit=on", "synchronous_commit=off"}},
		{"a flag", []*Run{
			cmpManifestRun("/r/x", "sqlite", nil, map[string]any{"threads": "4", "out": "/r/x"}),
			cmpManifestRun("/r/y", "sqlite", nil, map[string]any{"threads": "16", "out": "/r/y"})},
			[]string{"threads=4", "threads=16"}},
		{"nothing but the directory", []*Run{cmpManifestRun("/r/monday", "sqlite", nil, nil), cmpManifestRun("/r/tuesday", "sqlite", nil, nil)},
			[]string{"monday", "tuesday"}},
		{"not even that", []*Run{cmpManifestRun("/a/run", "sqlite", nil, nil), cmpManifestRun("/b/run", "sqlite", nil, nil)},
			[]string{"run A", "run B"}},
	} {
		if got := cmpRunLabels(c.runs, cmpDifferRows(c.runs)); !slices.Equal(got, c.want) {
			t.Errorf("%s: labels %q, want %q", c.name, got, c.want)
		}
	}

	rows := cmpDifferRows([]*Run{
		cmpManifestRun("/r/1", "postgres", map[string]string{"fsync": "on", "work_mem": "4MB"}, nil),
		cmpManifestRun("/r/2", "mariadb", map[string]string{"innodb_flush_log_at_trx_commit": "1"}, nil),
	})
	var labels []string
	for _, r := range rows {
		labels = append(labels, r[0])
	}
	// the start times differ but say nothing; each engine's own settings
	// share one row
	want := []string{"command", "engine", "settings of this engine only"}
	if !slices.Equal(labels, want) {
		t.Errorf("rows %q, want %q", labels, want)
	}
	if own := rows[len(rows)-1]; own[1] != "fsync=on, work_mem=4MB" || own[2] != "innodb_flush_log_at_trx_commit=1" {
		t.Errorf("own settings %q", own)
	}

	// two PostgreSQL runs that differ in a setting, and a MariaDB run: the
	// setting keeps its own row, what the two share goes into one
	rows = cmpDifferRows([]*Run{
		cmpManifestRun("/r/1", "postgres", map[string]string{"fsync": "on", "synchronous_commit": "on"}, nil),
		cmpManifestRun("/r/2", "postgres", map[string]string{"fsync": "on", "synchronous_commit": "off"}, nil),
		cmpManifestRun("/r/3", "mariadb", map[string]string{"innodb_flush_log_at_trx_commit": "1"}, nil),
	})
	wantRows := [][]string{
		{"setting synchronous_commit", "on", "off", cmpUnknown},
		{"settings of this engine only", "fsync=on", "fsync=on", "innodb_flush_log_at_trx_commit=1"},
	}
	if got := rows[len(rows)-2:]; !slices.EqualFunc(got, wantRows, slices.Equal) {
		t.Errorf("rows %q, want %q at the end", rows, wantRows)
	}
}
