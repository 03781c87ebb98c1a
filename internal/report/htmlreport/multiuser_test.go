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
)

// runMultiuser runs a tiny multi-user throughput test on SQLite.
func runMultiuser(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	plan := experiment.MultiuserPlan{Users: []int{0, 1, 2, 4}, Tuples: 1000, Reps: 3, Retrieves: 5, RowsPerRetrieve: 1, Seed: 1}
	if _, err := experiment.RunMultiuser(context.Background(), experiment.Setup{Dir: dir, Version: "test"}, plan, progress.New(nil)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The multiuser page of a real run: the summary's peak thruput (and its
// user count), T(1) and overhead are results.json's; the diagram is an
// inline svg with the measured curve; the reading names the peak;
// warnings appear for a wrong cardinality and an incomplete run, and not
// for the run as measured.
func TestMultiuserPage(t *testing.T) {
	dir := runMultiuser(t)
	res := readJSON[results.MultiuserResults](t, filepath.Join(dir, "results.json"))
	d, html := page(t, dir)

	peakU, peak := 0, 0.0
	for _, p := range res.Points {
		if p.Thruput != nil && *p.Thruput > peak {
			peakU, peak = p.Users, *p.Thruput
		}
	}
	h := headlineOf(t, d, "peak thruput")
	near(t, "peak thruput", firstNumber(t, h.Value), peak, 0)
	if want := fmt.Sprintf("at %d users", peakU); !strings.Contains(h.Note, want) {
		t.Errorf("peak note %q lacks %q", h.Note, want)
	}
	for _, p := range res.Points {
		if p.Users == 1 {
			near(t, "T(1)", firstNumber(t, headlineOf(t, d, "T(1)").Value), p.MedianMS, 0)
		}
		if p.Users == 4 {
			near(t, "T(4)", firstNumber(t, headlineOf(t, d, "T(4)").Value), p.MedianMS, 0)
		}
	}
	if res.OverheadMS == nil {
		t.Fatal("no overhead in results.json")
	}
	near(t, "overhead", firstNumber(t, headlineOf(t, d, "zero-user overhead").Value), *res.OverheadMS, 0)
	if v := headlineOf(t, d, "users as").Value; v != "goroutines" {
		t.Errorf("users as %q", v)
	}

	checkDiagram(t, html, "multiuser", "measured", "ideal")
	atPeak := fmt.Sprintf("%d users", peakU)
	if peakU == 1 {
		atPeak = "of 1 user" // "No user count beats the thruput of 1 user: ..."
	}
	if r := sectionOf(t, d, "multiuser").Reading; !mentions(r, peak) || !strings.Contains(r, atPeak) {
		t.Errorf("reading %q does not name the peak %v at %d users", r, peak, peakU)
	}
	if tb := sectionOf(t, d, "table").Table; tb == nil || len(tb.Rows) != 1+len(res.Points) || tb.Rows[0][0] != "users" {
		t.Errorf("table: %+v", tb)
	}
	if tb := sectionOf(t, d, "repetitions").Table; tb == nil || len(tb.Rows) != 1+len(res.Runs) {
		t.Errorf("repetitions: %+v", tb)
	}
	if warned(d, "Cardinality mismatch") || warned(d, "incomplete") {
		t.Errorf("warnings for a run without the condition: %q", d.Warnings)
	}

	bad := copyRun(t, dir)
	editJSON(t, filepath.Join(bad, "results.json"), func(m *results.MultiuserResults) {
		m.Runs[len(m.Runs)-1].Rows++
		m.Complete, m.Error = false, "interrupted"
	})
	d, _ = page(t, bad)
	last := res.Runs[len(res.Runs)-1]
	want := fmt.Sprintf("fetched %d rows, expected %d", last.Rows+1, last.Rows)
	if !warned(d, "Cardinality mismatch", want) || !warned(d, "incomplete", "interrupted") {
		t.Errorf("warnings lack the mismatch (%s) or the incomplete run: %q", want, d.Warnings)
	}
}

// The reading follows the shape of the thruput curve: the numbers in each
// expected line were computed by hand from the points.
func TestMultiuserReading(t *testing.T) {
	dir := runMultiuser(t)
	cases := []struct {
		name    string
		users   []int
		thruput []float64
		want    string
	}{
		{"plateau", []int{1, 2, 4, 8, 16}, []float64{1, 1.5, 2.08, 2.0, 1.9},
			"Thruput grows to 2.08 at 4 users (52% of the ideal 4) and stays within 10% of it up to 16 users (1.90 there): users beyond 4 add no thruput. The peak is at more users (4) than the machine has CPUs (2)."},
		{"falls", []int{1, 2, 4, 8, 16}, []float64{1, 1.5, 2.08, 1.6, 1.2},
			"Thruput grows to 2.08 at 4 users (52% of the ideal 4), then falls to 1.60 at 8 users; at 16 users it is 1.20. The peak is at more users (4) than the machine has CPUs (2)."},
		{"holds then falls", []int{1, 2, 4, 8}, []float64{1, 2, 1.9, 1.5},
			"Thruput grows to 2.00 at 2 users (100% of the ideal 2), stays within 10% of it up to 4 users, then falls to 1.50 at 8 (25% below the peak). The peak is at as many users as the machine has CPUs (2)."},
		{"still rising", []int{1, 2, 4, 8}, []float64{1, 1.5, 1.9, 2.5},
			"Thruput rises with every user count to 2.50 at 8 users, the largest count (31% of the ideal 8), 32% above 1.90 at 4 users: it was still rising where the user counts end. The peak is at more users (8) than the machine has CPUs (2)."},
		{"levelling off", []int{1, 2, 4}, []float64{1, 1.8, 1.85},
			"Thruput rises with every user count to 1.85 at 4 users, the largest count (46% of the ideal 4), only 3% above 1.80 at 2 users: it is levelling off. The peak is at more users (4) than the machine has CPUs (2)."},
		{"never above one", []int{1, 2, 4}, []float64{1, 0.8, 0.7},
			"No user count beats the thruput of 1 user: at 4 users it is 0.700, so 4 users together take longer than 4 one-user scripts run one after another."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := copyRun(t, dir)
			editJSON(t, filepath.Join(run, "results.json"), func(m *results.MultiuserResults) {
				m.CPUs = 2
				m.Points = nil
				for i, u := range c.users {
					th, t1 := c.thruput[i], 10.0
					tn := float64(u) * t1 / th
					m.Points = append(m.Points, results.MultiuserPoint{Users: u, N: 3, MedianMS: tn, MinMS: tn, MaxMS: tn, Thruput: &th})
				}
			})
			d, html := page(t, run)
			checkDiagram(t, html, "multiuser")
			if got := sectionOf(t, d, "multiuser").Reading; got != c.want {
				t.Errorf("reading\n got %s\nwant %s", got, c.want)
			}
		})
	}
}
