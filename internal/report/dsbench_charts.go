package report

import (
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// The five diagrams of a stress sweep (seed 001 §4.1, docs/dsbench.md §5),
// drawn from results.json alone:
//
//	rate   median line, mean with standard-deviation bars, min-max band of
//	       the T_i against scale (log-log); a second panel below, on the
//	       same scale axis, holds the populate, primary key, foreign key,
//	       cleanup and drop durations on a log axis, with its own legend
//	       (each legend describes one quantity). gonum/plot has no twin
//	       y axis, so the seed's right-hand time axis became this panel.
//	node   per remote load node (dbgauge agent): its median rate against
//	       scale as a line, the mean with min-max bars of its cycle
//	       rates, and the total (the scale's median rate); left out for a
//	       local run (dsbench_charts_nodes.go).
//	cycle  T_i against the cycle number, one curve per scale.
//	freq   inverse cumulative distribution of the residence times, log-log:
//	       P(residence time > x) against x in ms, one curve per scale, with
//	       the confidence levels marked as dashed lines.
//	conf   the rate at each confidence level (f / quantile) against scale.
//	failover  the clients' rate and errors around a node's crash, the
//	       fault's steps marked (dsbench_charts_failover.go); only with
//	       --fault.
//	cluster_lag, cluster_queue, cluster_conflicts  a cluster's measures
//	       over time (dsbench_charts_cluster.go); only on a cluster.
//
// The database size (GB, measured) is written under each scale on the
// scale axes: the seed's upper axis of sizes folded into the lower one.

// DSBenchCharts draws the diagrams of r as SVG and PNG: file name -> bytes
// (rate.svg, rate.png, node.svg, ...). A diagram with nothing positive to
// draw on its log axes is left out; the error reports charts that failed to
// render (the others are still returned).
func DSBenchCharts(r *results.DSBenchResults) (map[string][]byte, error) {
	// lines run along the scale axis: draw the scales in ascending order
	// whatever order they were run in
	sorted := *r
	sorted.Scales = slices.Clone(r.Scales)
	slices.SortStableFunc(sorted.Scales, func(a, b results.ScaleResult) int { return cmp.Compare(a.Scale, b.Scale) })
	r = &sorted
	out := map[string][]byte{}
	var errs []error
	type builder struct {
		name  string
		build func(*results.DSBenchResults) (*figure, vg.Length, error)
	}
	builders := []builder{
		{"rate", rateChart}, {"node", nodeChart}, {"cycle", cycleChart}, {"freq", freqChart}, {"conf", confChart}, {"failover", failoverChart},
	}
	for _, c := range clusterCharts {
		builders = append(builders, builder{c.name, func(r *results.DSBenchResults) (*figure, vg.Length, error) {
			return clusterChart(r, c.chart, c.title, c.y, c.perNode)
		}})
	}
	for _, c := range builders {
		f, h, err := c.build(r)
		if err != nil {
			errs = append(errs, fmt.Errorf("chart %s: %w", c.name, err))
			continue
		}
		if f == nil {
			continue
		}
		if err := renderChart(out, c.name, 9*vg.Inch, h, f); err != nil {
			errs = append(errs, err)
		}
	}
	return out, errors.Join(errs...)
}

const figH = 5.5 * vg.Inch

func dsbTitle(r *results.DSBenchResults, what string) string {
	t := fmt.Sprintf("%s: %s, %s %s, %s", what, r.WorkloadTitle(), r.Engine, r.EngineVersion, dsbClients(r))
	if r.DSI != nil {
		t += fmt.Sprintf(", DSI %.2f", *r.DSI)
	}
	return t
}

func dsbClients(r *results.DSBenchResults) string {
	return fmt.Sprintf("%d node(s) x %d thread(s)", max(r.Nodes, 1), max(r.Threads, 1))
}

// scaleAxis sets a log x axis over the scales of r, labelled with sizes.
func scaleAxis(p *plot.Plot, r *results.DSBenchResults) bool {
	t := scaleTicks{}
	for _, s := range r.Scales {
		t.scales = append(t.scales, float64(s.Scale))
		t.gb = append(t.gb, float64(s.DBSizeBytes)/1e9)
	}
	p.X.Label.Text = "scale (below it: database size [GB])"
	return logAxis(&p.X, t.scales, t)
}

func rateChart(r *results.DSBenchResults) (*figure, vg.Length, error) {
	top := newPlot(dsbTitle(r, "rate"), "", "rate [tps]")
	if !scaleAxis(top, r) {
		return nil, 0, nil
	}
	var med, mean, band, lows plotter.XYs
	var errs plotter.YErrors
	var all []float64
	for _, s := range r.Scales {
		x := float64(s.Scale)
		med = append(med, plotter.XY{X: x, Y: s.MedianTPS})
		all = append(all, s.MedianTPS, s.MeanTPS, s.MinTPS, s.MaxTPS, s.MeanTPS+s.StddevTPS)
		if s.MeanTPS > 0 {
			mean = append(mean, plotter.XY{X: x, Y: s.MeanTPS})
			errs = append(errs, struct{ Low, High float64 }{s.StddevTPS, s.StddevTPS})
		}
		if s.MinTPS > 0 { // a failed scale leaves the band, as the median line does
			band = append(band, plotter.XY{X: x, Y: s.MaxTPS})
			lows = append(lows, plotter.XY{X: x, Y: s.MinTPS})
		}
	}
	if !logAxis(&top.Y, all, nil) {
		return nil, 0, nil
	}
	floor := top.Y.Min
	leg := newLegend()
	// min-max band: max forward, min backward, clamped to the axis floor
	for i := len(lows) - 1; i >= 0; i-- {
		band = append(band, lows[i])
	}
	for i := range band {
		band[i].Y = math.Max(band[i].Y, floor)
	}
	if poly, err := plotter.NewPolygon(band); err == nil && len(band) > 2 {
		poly.Color = color.NRGBA{R: 80, G: 180, B: 80, A: 110}
		poly.LineStyle.Width = 0
		top.Add(poly)
		leg.Add("min..max", poly)
	}
	if m := positiveXY(med); len(m) > 0 {
		l, err := plotter.NewLine(m)
		if err != nil {
			return nil, 0, err
		}
		l.Color, l.Width = color.NRGBA{R: 210, A: 255}, vg.Points(2)
		top.Add(l)
		leg.Add("median", l)
	}
	if len(mean) > 0 {
		for i := range errs { // a bar may not reach below the log axis
			errs[i].Low = math.Min(errs[i].Low, mean[i].Y-floor)
		}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{mean, errs})
		if err != nil {
			return nil, 0, err
		}
		eb.Color = color.NRGBA{R: 210, A: 255}
		sc, err := plotter.NewScatter(mean)
		if err != nil {
			return nil, 0, err
		}
		sc.Color, sc.Shape = color.NRGBA{R: 210, A: 255}, draw.CircleGlyph{}
		top.Add(eb, sc)
		leg.Add("mean ± sd", sc)
	}

	// The durations have their own panel and their own legend beside it:
	// each legend then describes one quantity.
	bottom := newPlot("", "", "duration [s]")
	scaleAxis(bottom, r)
	durLeg := newLegend()
	var durs []float64
	for i, d := range []struct {
		name string
		v    func(s results.ScaleResult) float64
	}{
		{"populate", func(s results.ScaleResult) float64 { return s.PopulateS }},
		{"primary key", func(s results.ScaleResult) float64 { return s.PrimaryKeyS }},
		{"foreign key", func(s results.ScaleResult) float64 { return s.ForeignKeyS }},
		{"cleanup", func(s results.ScaleResult) float64 { return s.CleanupS }},
		{"drop", func(s results.ScaleResult) float64 { return s.DropS }},
	} {
		var xys plotter.XYs
		for _, s := range r.Scales {
			xys = append(xys, plotter.XY{X: float64(s.Scale), Y: d.v(s)})
			durs = append(durs, d.v(s))
		}
		if th := linePoints(bottom, i+1, positiveXY(xys)); th != nil {
			durLeg.Add(d.name+" [s]", th...)
		}
	}
	if !logAxis(&bottom.Y, durs, nil) {
		return withLegend(top, leg), figH, nil
	}
	top.X.Label.Text = ""
	return layout([][]*plot.Plot{{top}, {bottom}}, vg.Points(4), leg, durLeg), 8 * vg.Inch, nil
}

func cycleChart(r *results.DSBenchResults) (*figure, vg.Length, error) {
	p := newPlot(dsbTitle(r, "rate by cycle"), "cycle [number]", "T_i [tps]")
	var all []float64
	ncyc := 0
	for _, s := range r.Scales {
		all = append(all, s.Cycles...)
		ncyc = max(ncyc, len(s.Cycles))
	}
	if ncyc == 0 || !logAxis(&p.Y, all, nil) {
		return nil, 0, nil
	}
	p.X.Min, p.X.Max = 0.7, float64(ncyc)+0.3
	if ncyc <= 30 {
		var ts plot.ConstantTicks
		for i := 1; i <= ncyc; i++ {
			ts = append(ts, plot.Tick{Value: float64(i), Label: fmt.Sprint(i)})
		}
		p.X.Tick.Marker = ts
	}
	leg := newLegend()
	flagged := false
	for i, s := range r.Scales {
		var xys plotter.XYs
		for c, t := range s.Cycles {
			if t > 0 {
				xys = append(xys, plotter.XY{X: float64(c + 1), Y: t})
			}
		}
		if th := linePoints(p, i, xys); th != nil {
			leg.Add(fmt.Sprintf("scale %d", s.Scale), th...)
		}
		markFlagged(p, &leg, s, &flagged)
	}
	return withLegend(p, leg), figH, nil
}

func freqChart(r *results.DSBenchResults) (*figure, vg.Length, error) {
	p := newPlot(dsbTitle(r, "residence times"), "residence time [ms]", "P(residence time > x) [fraction]")
	var xs, ys []float64
	curves := make([]plotter.XYs, len(r.Scales))
	for i, s := range r.Scales {
		for _, q := range s.Residence {
			pt := plotter.XY{X: q.Micros / 1000, Y: 1 - q.Quantile}
			if pt.X > 0 && pt.Y > 0 {
				curves[i] = append(curves[i], pt)
				xs, ys = append(xs, pt.X), append(ys, pt.Y)
			}
		}
	}
	for _, l := range r.Confidence {
		ys = append(ys, 1-l/100)
	}
	if !logAxis(&p.X, xs, nil) || !logAxis(&p.Y, ys, nil) {
		return nil, 0, nil
	}
	p.Y.Max = 1 // a probability
	leg := newLegend()
	for i, s := range r.Scales {
		if th := linePoints(p, i, curves[i]); th != nil {
			leg.Add(fmt.Sprintf("scale %d", s.Scale), th...)
		}
	}
	// the confidence levels as dashed lines, labelled at the right edge
	var lab plotter.XYLabels
	for _, l := range r.Confidence {
		y := 1 - l/100
		ln, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: y}, {X: p.X.Max, Y: y}})
		if err != nil {
			return nil, 0, err
		}
		ln.Color, ln.Dashes = color.Gray{Y: 140}, []vg.Length{vg.Points(3), vg.Points(3)}
		p.Add(ln)
		lab.XYs = append(lab.XYs, plotter.XY{X: p.X.Max / 1.5, Y: y})
		lab.Labels = append(lab.Labels, stats.LevelKey(l)+"%")
	}
	if len(lab.Labels) > 0 {
		if ls, err := plotter.NewLabels(lab); err == nil {
			for i := range ls.TextStyle {
				ls.TextStyle[i].Color = color.Gray{Y: 90}
				ls.TextStyle[i].Font.Size = vg.Points(8)
			}
			p.Add(ls)
		}
	}
	return withLegend(p, leg), figH, nil
}

func confChart(r *results.DSBenchResults) (*figure, vg.Length, error) {
	p := newPlot(dsbTitle(r, "rate at confidence level"), "", "f / quantile [tps]")
	if !scaleAxis(p, r) {
		return nil, 0, nil
	}
	var all []float64
	for _, s := range r.Scales {
		for _, v := range s.ConfidenceTPS {
			all = append(all, v)
		}
	}
	if !logAxis(&p.Y, all, nil) {
		return nil, 0, nil
	}
	leg := newLegend()
	for i, l := range r.Confidence {
		var xys plotter.XYs
		for _, s := range r.Scales {
			if v, ok := s.ConfidenceTPS[stats.LevelKey(l)]; ok {
				xys = append(xys, plotter.XY{X: float64(s.Scale), Y: v})
			}
		}
		if th := linePoints(p, i, positiveXY(xys)); th != nil {
			leg.Add(levelLabel(l)+" %", th...)
		}
	}
	return withLegend(p, leg), figH, nil
}
