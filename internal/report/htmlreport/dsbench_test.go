package htmlreport

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

// The rate reading follows the curve, whatever shape it has.
func TestRateReading(t *testing.T) {
	sc := func(tps ...float64) []results.ScaleResult {
		var s []results.ScaleResult
		for i, v := range tps {
			s = append(s, results.ScaleResult{Scale: []int64{1, 2, 5, 10, 20}[i], MedianTPS: v})
		}
		return s
	}
	for _, c := range []struct {
		s    []results.ScaleResult
		want string
	}{
		{sc(105, 200, 250, 372, 301), "The median rate rises from 105 tps at scale 1 to a peak of 372 tps at scale 10, then falls to 301 tps at scale 20."},
		{sc(105, 200), "The median rate rises from 105 tps at scale 1 to its peak at the largest scale, 200 tps at scale 2."},
		{sc(300, 200, 100), "The median rate is highest at the smallest scale, 300 tps at scale 1, and falls to 100 tps at scale 5."},
		{sc(100, 300, 300), "The median rate rises from 100 tps at scale 1 to a peak of 300 tps at scale 2, then ends at 300 tps at scale 5."},
	} {
		if got := rateReading(c.s); got != c.want {
			t.Errorf("rateReading:\n got %q\nwant %q", got, c.want)
		}
	}
}

// A sweep of one scale on SQLite: the summary says what results.json
// holds, every diagram has data and a reading, and consistency failures
// and failed transactions are warned about exactly when they happened.
func TestDSBenchPage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	plan := experiment.DSBenchPlan{Mode: "tpcb", Scales: []int64{1}, Cycles: 2, Duration: time.Second, Nodes: 1, Threads: 2, Conns: 1,
		Confidence: []float64{50, 95, 99}, Seed: 1}
	if _, err := experiment.RunDSBench(context.Background(), experiment.DSBenchSetup{Dir: dir, Version: "test"}, plan, progress.New(nil)); err != nil {
		t.Fatal(err)
	}
	var res results.DSBenchResults
	readResults(t, dir, &res)
	s := res.Scales[0]
	d := docOf(t, dir)
	checkPage(t, d)
	checkHeadlines(t, d, map[string]string{
		"DSI":               "none", // one scale
		"consistency check": "consistent",
		"peak rate":         num(s.MedianTPS) + " tps",
		"scale 1 (" + bytesLabel(s.DBSizeBytes) + ")": num(s.MedianTPS) + " tps",
	})
	var diagrams []string
	for _, sec := range d.Sections {
		if sec.SVG != "" {
			diagrams = append(diagrams, sec.ID)
		}
	}
	if !slices.Equal(diagrams, []string{"rate", "cycle", "freq", "conf"}) {
		t.Errorf("diagrams %v, want rate, cycle, freq, conf", diagrams)
	}
	if r := d.Sections[0].Reading; !strings.Contains(r, num(s.MedianTPS)+" tps") {
		t.Errorf("rate reading %q lacks the median rate", r)
	}
	if !s.Consistent || s.Failed != 0 {
		t.Fatalf("scale 1: consistent %v, %d failed", s.Consistent, s.Failed)
	}
	if n := warned(d, "consistency") + warned(d, "failed transaction") + warned(d, "did not complete"); n != 0 {
		t.Errorf("warnings of a clean sweep: %q", d.Warnings)
	}
	checkCPUSection(t, d, s)

	// two scales, the second inconsistent with failed trials, a DSI
	bad := res
	s2 := s
	s2.Scale, s2.MedianTPS, s2.Consistent, s2.Inconsistency, s2.Failed = 2, s.MedianTPS/2, false, []string{"sum of balances differs"}, 5
	bad.Scales = []results.ScaleResult{s2, s} // out of order: the page sorts them
	dsi := 0.57
	bad.DSI = &dsi
	bad.Complete = false
	cpuWarning := "scale 2: the client used 41% of the machine's CPU (more than 25%)"
	bad.Warnings = append(bad.Warnings, cpuWarning+": the rate is partly the client's, not only the server's; run the load from another machine or with fewer threads")
	d = docOf(t, withResults(t, dir, bad))
	checkPage(t, d)
	checkWarnedOnce(t, d, "scale 2 failed its consistency check: sum of balances differs", "scale 2: 5 failed transaction trials", "did not complete", cpuWarning)
	for label, want := range map[string]string{"DSI": "0.570", "consistency check": "FAILED at 1 of 2 scales", "peak rate": num(s.MedianTPS) + " tps"} {
		if got := headline(t, d, label).Value; got != want {
			t.Errorf("headline %q = %q, want %q", label, got, want)
		}
	}
	if got, want := headline(t, d, "peak rate").Note, "at scale 1"; got != want {
		t.Errorf("peak at %q, want %q", got, want)
	}
}

// checkCPUSection: the load-per-transaction section shows the CPU shares
// results.json holds (as percentages) and reads them; SQLite runs inside
// dbgauge, so the server's share is unknown.
func checkCPUSection(t *testing.T, d *Doc, s results.ScaleResult) {
	t.Helper()
	if s.ClientCPUShare == nil || s.MachineCPUShare == nil || s.ClientCPUPerTxUS == nil {
		t.Fatalf("results.json lacks the CPU shares: %+v", s)
	}
	var sec *Section
	for i := range d.Sections {
		if d.Sections[i].ID == "per_transaction" {
			sec = &d.Sections[i]
		}
	}
	if sec == nil || sec.Table == nil || len(sec.Table.Rows) != 2 {
		t.Fatalf("no per-transaction table")
	}
	cell := map[string]string{}
	for i, h := range sec.Table.Rows[0] {
		cell[h] = sec.Table.Rows[1][i]
	}
	p := func(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) }
	want := map[string]string{"client_cpu_%": p(*s.ClientCPUShare), "machine_cpu_%": p(*s.MachineCPUShare), "server_cpu_%": "unknown",
		"client_cpu_us": strconv.FormatFloat(*s.ClientCPUPerTxUS, 'f', 1, 64)}
	for h, v := range want {
		if cell[h] != v {
			t.Errorf("per-transaction %s = %q, want %q", h, cell[h], v)
		}
	}
	if r := sec.Reading; !strings.Contains(r, "the client used "+pct(100**s.ClientCPUShare)+"% of the machine's CPU") || !strings.Contains(r, "the server an unknown share") {
		t.Errorf("CPU reading %q", r)
	}
	if notes := strings.Join(sec.Table.Notes, " "); !strings.Contains(notes, "server: none: sqlite runs inside dbgauge's process") {
		t.Errorf("per-transaction notes %q lack the server's processes", notes)
	}
}
