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

// The sizesweep page of a real run on SQLite: per access method the slope
// and R² (the scans' as results.json holds it, the indexed methods' fitted
// over the same points), the flatness ratios and the scale model's errors
// are results.json's; the diagram is an inline svg; a scan line with a low
// R² and a size not measured are warned about, and only then.
func TestSizeSweepPage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	plan := experiment.SizeSweepPlan{Sizes: []int64{150, 500, 1000, 2000},
		Access:   []string{results.AccessNone, results.AccessClustered, results.AccessNonClustered},
		Retrieve: experiment.RetrieveSingle, Reps: 3, Warmup: 1, Seed: 1}
	if _, err := experiment.RunSizeSweep(context.Background(), experiment.Setup{Dir: dir, Version: "test"}, plan, progress.New(nil)); err != nil {
		t.Fatal(err)
	}
	res := readJSON[results.SizeSweepResults](t, filepath.Join(dir, "results.json"))
	a := res.Analysis
	if a == nil || a.NoIndexFit == nil || len(a.Flatness) != 2 || len(a.Predictions) != 3 {
		t.Fatalf("analysis: %+v", a)
	}
	d, html := page(t, dir)

	h := headlineOf(t, d, "no index: slope")
	near(t, "scan slope", firstNumber(t, h.Value), a.NoIndexFit.Slope*1000, 0)
	if want := fmt.Sprintf("R² %.3f over %d sizes", a.NoIndexFit.R2, a.NoIndexFit.N); !strings.Contains(h.Note, want) {
		t.Errorf("scan slope note %q lacks %q", h.Note, want)
	}
	var xs, ys []float64
	for _, p := range res.Points {
		if p.Access == results.AccessClustered {
			xs, ys = append(xs, float64(p.Size)), append(ys, p.BasisMS(res.Basis))
		}
	}
	fit, err := stats.FitLine(xs, ys)
	if err != nil {
		t.Fatal(err)
	}
	h = headlineOf(t, d, "clustered: slope")
	near(t, "clustered slope", firstNumber(t, h.Value), fit.Slope*1000, 0)
	if want := fmt.Sprintf("R² %.3f", fit.R2); !strings.Contains(h.Note, want) {
		t.Errorf("clustered slope note %q lacks %q", h.Note, want)
	}
	for _, f := range a.Flatness {
		label := map[string]string{results.AccessClustered: "clustered", results.AccessNonClustered: "non-clustered"}[f.Access]
		near(t, label+" flatness", firstNumber(t, headlineOf(t, d, label+": slowest / fastest size").Value), f.Ratio, 0)
	}
	for _, p := range a.Predictions {
		label := map[string]string{results.AccessNone: "no index", results.AccessClustered: "clustered", results.AccessNonClustered: "non-clustered"}[p.Access]
		near(t, label+" prediction error", firstNumber(t, headlineOf(t, d, label+": scale-model error").Value), p.ErrorPct, 0.05)
	}

	checkDiagram(t, html, "sizesweep", "none", "clustered", "nonclustered")
	r := sectionOf(t, d, "sizesweep").Reading
	if !strings.Contains(r, fmt.Sprintf("explains %.1f%%", 100*a.NoIndexFit.R2)) || !mentions(r, a.Flatness[0].Ratio) {
		t.Errorf("reading %q lacks the fit's R² or the flatness %v", r, a.Flatness[0].Ratio)
	}
	for _, id := range []string{"table-times", "table-fit", "table-flatness", "table-ratios", "table-prediction"} {
		if tb := sectionOf(t, d, id).Table; tb == nil || len(tb.Rows) < 2 {
			t.Errorf("%s: %+v", id, tb)
		}
	}
	if warned(d, "Not measured") || warned(d, "incomplete") {
		t.Errorf("warnings for a complete run: %q", d.Warnings)
	}

	for _, c := range []struct {
		r2   float64
		warn bool
	}{{0.42, true}, {0.99, false}} {
		run := copyRun(t, dir)
		editJSON(t, filepath.Join(run, "results.json"), func(s *results.SizeSweepResults) {
			s.Analysis.NoIndexFit.R2 = c.r2
			if c.warn {
				s.Points = s.Points[:len(s.Points)-1] // the largest size's last method
			}
		})
		d, _ := page(t, run)
		if got := warned(d, "the linear fit explains only 42% of the variance"); got != c.warn {
			t.Errorf("R² %v: low-fit warning %v, want %v: %q", c.r2, got, c.warn, d.Warnings)
		}
		if got := warned(d, "Not measured: non-clustered at 2000 tuples"); got != c.warn {
			t.Errorf("missing point: warning %v, want %v: %q", got, c.warn, d.Warnings)
		}
	}
}
