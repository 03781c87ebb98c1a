package report

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/dbgauge/dbgauge/internal/results"
)

// The overlaid diagrams of a comparison of runs (dbgauge compare): one
// colour per run, the baseline first (colour 0), in every diagram:
//
//	lines    a metric against the experiment's variable (scale, users,
//	         size, p, cardinality) on log-log axes, with the range of the
//	         repetitions as bars: CompareLinesChart, CompareRateChart
//	latency  percentile plots of the latency distributions, one panel per
//	         scale: CompareLatencyChart
//	bars     per query the median time of each run, grouped:
//	         CompareQueryChart
//	ratios   per metric the ratio other/baseline with its interval and the
//	         line at 1: CompareRatioChart

// CompareSeries is one run's curve on an overlaid chart: Y against X and,
// when Low and High are set (same length as Y), the range drawn as bars.
type CompareSeries struct {
	Label     string
	X, Y      []float64
	Low, High []float64
}

// CompareLinesChart draws the series overlaid on log-log axes, one colour
// per series (name.svg, name.png). Points that are not positive are left
// off the log axes; no chart when none is left.
func CompareLinesChart(name, title, xLabel, yLabel string, series []CompareSeries) (map[string][]byte, error) {
	out := map[string][]byte{}
	p := newPlot(title, xLabel, yLabel)
	var xs, ys []float64
	for _, s := range series {
		for i := range s.Y {
			if s.X[i] > 0 && s.Y[i] > 0 {
				xs, ys = append(xs, s.X[i]), append(ys, s.Y[i])
				if s.Low != nil {
					ys = append(ys, s.Low[i], s.High[i])
				}
			}
		}
	}
	if !logAxis(&p.X, xs, nil) || !logAxis(&p.Y, ys, nil) {
		return out, nil
	}
	leg := newLegend()
	addCompareSeries(p, &leg, series)
	return out, renderChart(out, name, 9*vg.Inch, figH, withLegend(p, leg))
}

// addCompareSeries adds each series as a line with points in its run's
// colour, with its range bars. Runs measured at the same x are moved apart
// by a few percent along the (log) x axis, so that their bars do not hide
// each other.
func addCompareSeries(p *plot.Plot, leg *plot.Legend, series []CompareSeries) {
	for i, s := range series {
		shift := math.Pow(1.025, float64(i)-float64(len(series)-1)/2)
		var xys plotter.XYs
		var errs plotter.YErrors
		for k := range s.Y {
			if !(s.X[k] > 0 && s.Y[k] > 0) {
				continue
			}
			xys = append(xys, plotter.XY{X: s.X[k] * shift, Y: s.Y[k]})
			if s.Low != nil {
				// a bar may not reach below the log axis
				lo := math.Max(s.Low[k], p.Y.Min)
				errs = append(errs, struct{ Low, High float64 }{math.Max(s.Y[k]-lo, 0), math.Max(s.High[k]-s.Y[k], 0)})
			}
		}
		th := linePoints(p, i, xys)
		if th == nil {
			continue
		}
		if s.Low != nil {
			if eb, err := plotter.NewYErrorBars(struct {
				plotter.XYer
				plotter.YErrorer
			}{xys, errs}); err == nil {
				eb.Color, _, _ = seriesStyle(i)
				eb.CapWidth = vg.Points(5)
				p.Add(eb)
			}
		}
		leg.Add(s.Label, th...)
	}
}

// CompareRateChart draws the rate against scale of stress sweeps, one
// curve per run: the median of the cycle rates T_i with their min..max as
// bars (compare_rate.svg, compare_rate.png). labels[i] names runs[i].
func CompareRateChart(labels []string, runs []*results.DSBenchResults) (map[string][]byte, error) {
	var series []CompareSeries
	var scales []float64
	for i, r := range runs {
		s := CompareSeries{Label: labels[i]}
		sorted := slices.Clone(r.Scales)
		slices.SortStableFunc(sorted, func(a, b results.ScaleResult) int { return cmp.Compare(a.Scale, b.Scale) })
		for _, sc := range sorted {
			s.X = append(s.X, float64(sc.Scale))
			s.Y = append(s.Y, sc.MedianTPS)
			s.Low, s.High = append(s.Low, sc.MinTPS), append(s.High, sc.MaxTPS)
			if !slices.Contains(scales, float64(sc.Scale)) {
				scales = append(scales, float64(sc.Scale))
			}
		}
		series = append(series, s)
	}
	slices.Sort(scales)
	out := map[string][]byte{}
	p := newPlot("rate against scale: median of the cycle rates (bars: slowest..fastest cycle)", "scale", "rate [tps]")
	var ys []float64
	for _, s := range series {
		ys = append(ys, s.Y...)
		ys = append(ys, s.Low...)
		ys = append(ys, s.High...)
	}
	// the scales run label the axis (database sizes differ between
	// engines, so none is written under them)
	if !logAxis(&p.X, scales, scaleTicks{scales: scales, gb: make([]float64, len(scales))}) || !logAxis(&p.Y, ys, nil) {
		return out, nil
	}
	leg := newLegend()
	addCompareSeries(p, &leg, series)
	return out, renderChart(out, "compare_rate", 9*vg.Inch, figH, withLegend(p, leg))
}

// seriesThumb is the legend thumbnail of series i as linePoints draws it,
// for a legend shared by several panels.
func seriesThumb(i int) []plot.Thumbnailer {
	c, dashes, shape := seriesStyle(i)
	l, s, err := plotter.NewLinePoints(plotter.XYs{{X: 1, Y: 1}})
	if err != nil {
		return nil
	}
	l.Color, l.Dashes, l.Width = c, dashes, vg.Points(1.5)
	s.Color, s.Shape, s.Radius = c, shape, vg.Points(2.5)
	return []plot.Thumbnailer{l, s}
}
