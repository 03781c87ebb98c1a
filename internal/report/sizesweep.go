package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/dbgauge/dbgauge/internal/results"
)

// The sizesweep run's derived files, as the run writes them and `dbgauge
// report` rewrites them.
func init() {
	RegisterFiles("sizesweep", func(r results.Results) (map[string][]byte, error) {
		res := r.(*results.SizeSweepResults)
		charts, err := SizeSweepChart(res)
		return withCharts(map[string][]byte{"sizesweep.txt": SizeSweepText(res), "sizesweep.csv": SizeSweepCSV(res)}, charts, err)
	})
}

// Tables and diagram of a size sweep (seed 004 Test 2): times by size and
// access method, the scans' fitted line, the indexed methods' flatness,
// the non-clustered/clustered ratio (Table 10) and the scale-model check.

func sweepRetrieve(r *results.SizeSweepResults) string {
	if r.Retrieve == "1pct" {
		return "1% range retrieves"
	}
	return "single-tuple retrieves"
}

func sweepPoint(r *results.SizeSweepResults, size int64, access string) *results.SizeSweepPoint {
	for i := range r.Points {
		if p := &r.Points[i]; p.Size == size && p.Access == access {
			return p
		}
	}
	return nil
}

// sweepTimesTable is the seed's table: the average (and median) time of a
// retrieve per size, one column pair per access method.
func sweepTimesTable(r *results.SizeSweepResults) *Table {
	t := &Table{Title: []string{
		fmt.Sprintf("Retrieval time against relation size: %s on %s %s, %d timed per size and method (+%d warm-up), warm cache",
			sweepRetrieve(r), r.Engine, r.EngineVersion, r.Reps, r.Warmup),
		"times in ms: mean (the seed's average) and median; none scans unique2, clustered reads unique2 through its clustered index, nonclustered unique1 through a secondary index",
	}}
	engine := r.EngineTime != nil && r.EngineTime.None == ""
	head := []string{"size"}
	for _, a := range r.Access {
		head = append(head, a+"_mean", a+"_median")
		if engine {
			head = append(head, a+"_engine_median")
		}
	}
	t.Rows = append(t.Rows, head)
	for _, n := range r.Sizes {
		row := []string{strconv.FormatInt(n, 10)}
		any := false
		for _, a := range r.Access {
			p := sweepPoint(r, n, a)
			if p != nil && p.Summary.N > 0 {
				row = append(row, ms(p.Summary.Mean), ms(p.Summary.Median))
				any = true
			} else {
				row = append(row, "-", "-")
			}
			if engine {
				cell := "-"
				if p != nil && p.EngineSummary != nil {
					cell = ms(p.EngineSummary.Median)
				} else if p != nil && p.EngineNone != "" {
					t.Notes = append(t.Notes, fmt.Sprintf("N=%d %s: no engine time: %s", n, a, p.EngineNone))
				}
				row = append(row, cell)
			}
		}
		if any {
			t.Rows = append(t.Rows, row)
		}
	}
	if et := r.EngineTime; et != nil {
		t.Notes = append(t.Notes, engineTimingLine(et)+" (docs/wisconsin.md §8): the engine's own time of each retrieve, its median per size and method")
	}
	if !r.Complete && r.Error != "" {
		t.Notes = append(t.Notes, "INCOMPLETE: "+r.Error)
	}
	return t
}

// sweepFitTable is the scans' least-squares line.
func sweepFitTable(r *results.SizeSweepResults) *Table {
	t := &Table{Title: []string{"No index: least-squares line, " + r.Basis + " time = intercept + slope x size (seed 004: linear from 5,000 tuples up)"}}
	t.Rows = append(t.Rows, []string{"intercept_ms", "slope_ms_per_tuple", "slope_ms_per_1000_tuples", "r2", "sizes_fitted"})
	if a := r.Analysis; a != nil && a.NoIndexFit != nil {
		f := a.NoIndexFit
		t.Rows = append(t.Rows, []string{sigDigits(f.Intercept, 4), sigDigits(f.Slope, 4), sigDigits(f.Slope*1000, 4),
			strconv.FormatFloat(f.R2, 'f', 4, 64), strconv.Itoa(f.N)})
	}
	return t
}

// sweepFlatTable is the indexed methods' slowest over fastest size.
func sweepFlatTable(r *results.SizeSweepResults) *Table {
	t := &Table{Title: []string{"Indexed access: slowest size's " + r.Basis + " time / fastest size's (seed 004: 1.52 to 2.19, \"nearly constant\")"}}
	t.Rows = append(t.Rows, []string{"access", "fastest_size", "fastest_ms", "slowest_size", "slowest_ms", "ratio"})
	if a := r.Analysis; a != nil {
		for _, f := range a.Flatness {
			t.Rows = append(t.Rows, []string{f.Access, sigDigits(f.FastestSize, 0), ms(f.FastestMS), sigDigits(f.SlowestSize, 0), ms(f.SlowestMS), sigDigits(f.Ratio, 3)})
		}
	}
	return t
}

// sweepRatioTable is seed 004 Table 10: non-clustered time / clustered
// time per size, and on average.
func sweepRatioTable(r *results.SizeSweepResults) *Table {
	t := &Table{Title: []string{"Non-clustered / clustered " + r.Basis + " time per size (seed 004 Table 10: about 1.1)"}}
	t.Rows = append(t.Rows, []string{"size", "nonclustered_over_clustered"})
	a := r.Analysis
	if a == nil || a.NonClusteredOverClustered == nil {
		return t
	}
	rt := a.NonClusteredOverClustered
	for i, n := range rt.Sizes {
		t.Rows = append(t.Rows, []string{strconv.FormatInt(n, 10), strconv.FormatFloat(rt.PerSize[i], 'f', 4, 64)})
	}
	t.Rows = append(t.Rows, []string{"average", strconv.FormatFloat(rt.RatioOfMeans, 'f', 4, 64)})
	t.Notes = append(t.Notes, "average: the sum of the non-clustered "+r.Basis+" times over the sum of the clustered ones, as the seed's 1.072790 is;",
		"the plain mean of the per-size ratios is "+strconv.FormatFloat(rt.MeanOfRatios, 'f', 4, 64))
	return t
}

// sweepPredictionTable is the scale-model check per access method.
func sweepPredictionTable(r *results.SizeSweepResults) *Table {
	t := &Table{Title: []string{"Scale model: a line fitted on every size but the largest, extrapolated to the largest (seed 004: \"access times can be predicted\")"}}
	t.Rows = append(t.Rows, []string{"access", "sizes_fitted", "slope_ms_per_tuple", "size", "predicted_ms", "measured_ms", "error_pct"})
	if a := r.Analysis; a != nil {
		for _, p := range a.Predictions {
			t.Rows = append(t.Rows, []string{p.Access, strconv.Itoa(p.Fit.N), sigDigits(p.Fit.Slope, 3), sigDigits(p.Size, 0),
				ms(p.PredictedMS), ms(p.MeasuredMS), strconv.FormatFloat(p.ErrorPct, 'f', 1, 64)})
		}
		t.Notes = append(t.Notes, "error_pct = (predicted - measured) / measured x 100")
		t.Notes = append(t.Notes, a.Notes...)
	}
	return t
}

// sweepDetailTable is every point with its spread, rows and plan.
func sweepDetailTable(r *results.SizeSweepResults) *Table {
	t := &Table{Title: []string{"Every size and method: times in ms over the timed retrieves, rows per retrieve, the engine's plan (first line)"}}
	t.Rows = append(t.Rows, []string{"size", "access", "n", "mean", "median", "min", "max", "stddev", "rows", "plan"})
	for _, p := range r.Points {
		s := p.Summary
		t.Rows = append(t.Rows, []string{strconv.FormatInt(p.Size, 10), p.Access, strconv.Itoa(s.N), ms(s.Mean), ms(s.Median),
			ms(s.Min), ms(s.Max), ms(s.StdDev), strconv.FormatInt(p.ExpectedRows, 10), planLine(p.Plan)})
	}
	for _, w := range r.Warnings {
		t.Notes = append(t.Notes, "warning: "+w)
	}
	return t
}

// planLine is the first non-empty line of a plan, trimmed.
func planLine(plan string) string {
	for _, l := range strings.Split(plan, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return "-"
}

// SizeSweepText is sizesweep.txt.
func SizeSweepText(r *results.SizeSweepResults) []byte {
	var b bytes.Buffer
	for _, t := range []*Table{sweepTimesTable(r), sweepFitTable(r), sweepFlatTable(r), sweepRatioTable(r), sweepPredictionTable(r), sweepDetailTable(r)} {
		t.Text(&b)
	}
	return b.Bytes()
}

// SizeSweepCSV is sizesweep.csv: the per-point times, the fit, the
// flatness, the ratios and the predictions, each row led by its table's
// name (a header row has "table" there).
func SizeSweepCSV(r *results.SizeSweepResults) []byte {
	return SizeSweepCSVTable(r).CSVBytes()
}

// SizeSweepCSVTable is sizesweep.csv as a table value: its parts one
// after the other, each row led by the part's name (Table.Led).
func SizeSweepCSVTable(r *results.SizeSweepResults) *Table {
	t := &Table{}
	for _, p := range []struct {
		name string
		t    *Table
	}{{"times", sweepDetailTable(r)}, {"fit", sweepFitTable(r)}, {"flatness", sweepFlatTable(r)},
		{"ratios", sweepRatioTable(r)}, {"prediction", sweepPredictionTable(r)}} {
		t.Rows = append(t.Rows, p.t.Led(p.name)...)
	}
	return t
}

// SizeSweepChart draws mean time against size (sizesweep.svg, .png): on
// the left every access method on log-log axes, where a flat index and a
// linear scan are told apart at a glance; on the right the scans on linear
// axes with the fitted line and the scale model's predicted point, where
// linearity itself shows.
func SizeSweepChart(r *results.SizeSweepResults) (map[string][]byte, error) {
	left := newPlot(fmt.Sprintf("%s on %s: time against size", sweepRetrieve(r), r.Engine), "relation size [tuples]", r.Basis+" time [ms]")
	leg := newLegend()
	var xs, ys []float64
	for i, a := range r.Access {
		var xy plotter.XYs
		for _, p := range r.Points {
			if p.Access == a && p.Summary.N > 0 {
				xy = append(xy, plotter.XY{X: float64(p.Size), Y: p.BasisMS(r.Basis)})
				xs, ys = append(xs, float64(p.Size)), append(ys, p.BasisMS(r.Basis))
			}
		}
		if th := linePoints(left, i, positiveXY(xy)); th != nil {
			leg.Add(a, th...)
		}
	}
	out := map[string][]byte{}
	if !logAxis(&left.X, xs, nil) || !logAxis(&left.Y, ys, nil) {
		return out, nil
	}
	right := sweepScanPlot(r, &leg)
	if right == nil {
		return out, renderChart(out, "sizesweep", 9*vg.Inch, figH, withLegend(left, leg))
	}
	return out, renderChart(out, "sizesweep", 13*vg.Inch, figH, layout([][]*plot.Plot{{left, right}}, vg.Points(12), leg))
}

// sweepScanPlot is the scans on linear axes with the fitted line and the
// predicted largest size; nil without a fit.
func sweepScanPlot(r *results.SizeSweepResults, leg *plot.Legend) *plot.Plot {
	a := r.Analysis
	if a == nil || a.NoIndexFit == nil {
		return nil
	}
	p := newPlot("no index: linear axes", "relation size [tuples]", r.Basis+" time [ms]")
	var xy plotter.XYs
	maxX := 0.0
	for _, pt := range r.Points {
		if pt.Access == results.AccessNone && pt.Summary.N > 0 {
			xy = append(xy, plotter.XY{X: float64(pt.Size), Y: pt.BasisMS(r.Basis)})
			maxX = math.Max(maxX, float64(pt.Size))
		}
	}
	sc, err := plotter.NewScatter(xy)
	if err != nil {
		return nil
	}
	c, _, shape := seriesStyle(0)
	sc.Color, sc.Shape, sc.Radius = c, shape, vg.Points(3)
	p.Add(sc)
	f := a.NoIndexFit
	if l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: f.At(0)}, {X: maxX, Y: f.At(maxX)}}); err == nil {
		l.Color, l.Width = color.Gray{Y: 60}, vg.Points(1)
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		p.Add(l)
		leg.Add(fmt.Sprintf("none: fit %s + %s ms/tuple, R² %.4f", sigDigits(f.Intercept, 3), sigDigits(f.Slope, 3), f.R2), l)
	}
	for _, pr := range a.Predictions {
		if pr.Access != results.AccessNone {
			continue
		}
		ps, err := plotter.NewScatter(plotter.XYs{{X: pr.Size, Y: pr.PredictedMS}})
		if err == nil {
			ps.Color, ps.Shape, ps.Radius = color.NRGBA{R: 200, A: 255}, draw.CrossGlyph{}, vg.Points(5)
			p.Add(ps)
			leg.Add(fmt.Sprintf("none: predicted from smaller sizes (%+.1f%%)", pr.ErrorPct), ps)
		}
	}
	p.Y.Min, p.X.Min = 0, 0
	return p
}
