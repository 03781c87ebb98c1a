package report

import (
	"cmp"
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

// nodeChart is the rate per node diagram of seed 001 §4.1.2, for a sweep
// on remote load nodes: per node (by name, in node order) its median rate
// (NodeRate.MedianTPS) against scale as a line, with the mean and the
// min..max of its cycle rates as a point with bars, and the total (the
// scale's median rate) as a heavier black line. Rates are transactions
// over the demanded duration D. A cycle in which a node was lost is left
// out of its bars: what it sent before is no rate of the whole cycle. The
// seed omits the diagram for a local run, and so does dbgauge.
func nodeChart(r *results.DSBenchResults) (chartFigure, vg.Length, error) {
	if !DSBenchDistributed(r) {
		return nil, 0, nil
	}
	type series struct {
		name      string
		med, mean plotter.XYs
		errs      plotter.YErrors
		node      int
		status    string
		seen      bool
	}
	byNode := map[int]*series{}
	for _, a := range r.Agents {
		byNode[a.Node] = &series{name: a.Name, node: a.Node, status: a.Status}
	}
	var total plotter.XYs
	var all []float64
	for _, s := range r.Scales {
		x := float64(s.Scale)
		total = append(total, plotter.XY{X: x, Y: s.MedianTPS})
		all = append(all, s.MedianTPS)
		cycles := map[int][]float64{}
		for _, c := range s.NodeCycles {
			for _, n := range c.Nodes {
				if !n.Lost {
					cycles[n.Node] = append(cycles[n.Node], n.TPS)
				}
			}
		}
		for _, n := range s.NodeRates {
			sr := byNode[n.Node]
			if sr == nil { // a node the agents list lacks: still drawn, by its own name
				sr = &series{name: n.Name, node: n.Node}
				byNode[n.Node] = sr
			}
			sr.seen = true
			sr.med = append(sr.med, plotter.XY{X: x, Y: n.MedianTPS})
			all = append(all, n.MedianTPS)
			if sum := stats.Summarize(cycles[n.Node]); sum.N > 0 && sum.Mean > 0 {
				sr.mean = append(sr.mean, plotter.XY{X: x, Y: sum.Mean})
				sr.errs = append(sr.errs, struct{ Low, High float64 }{sum.Mean - sum.Min, sum.Max - sum.Mean})
				all = append(all, sum.Min, sum.Max)
			}
		}
	}
	p := newPlot(dsbTitle(r, "rate per node"), "", "rate [tps]")
	if !scaleAxis(p, r) || !logAxis(&p.Y, all, nil) {
		return nil, 0, nil
	}
	var order []*series
	for _, sr := range byNode {
		if sr.seen {
			order = append(order, sr)
		}
	}
	slices.SortFunc(order, func(a, b *series) int { return cmp.Compare(a.node, b.node) })
	leg := newLegend()
	for i, sr := range order {
		th := linePoints(p, i, positiveXY(sr.med))
		if len(sr.mean) > 0 {
			for k := range sr.errs { // a bar may not reach below the log axis
				sr.errs[k].Low = math.Min(sr.errs[k].Low, sr.mean[k].Y-p.Y.Min)
			}
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{sr.mean, sr.errs})
			if err != nil {
				return nil, 0, err
			}
			eb.Color, _, _ = seriesStyle(i)
			p.Add(eb)
		}
		if th != nil {
			name := sr.name
			if sr.status != "ok" && sr.status != "" {
				name += " (" + sr.status + ")"
			}
			leg.Add(name, th...)
		}
	}
	if t := positiveXY(total); len(t) > 0 {
		l, err := plotter.NewLine(t)
		if err != nil {
			return nil, 0, err
		}
		l.Color, l.Width = color.Black, vg.Points(2.5)
		p.Add(l)
		leg.Add("total", l)
	}
	return withLegend(p, leg), figH, nil
}

// markFlagged rings the cycles of scale s that carry a flag (a node lost,
// the run gone on with the survivors) on the rate by cycle diagram, and
// names the ring in the legend once; a local run has none.
func markFlagged(p *plot.Plot, leg *plot.Legend, s results.ScaleResult, named *bool) {
	var xys plotter.XYs
	for _, c := range s.NodeCycles {
		if c.Flag != "" && c.Cycle >= 1 && c.Cycle <= len(s.Cycles) && s.Cycles[c.Cycle-1] > 0 {
			xys = append(xys, plotter.XY{X: float64(c.Cycle), Y: s.Cycles[c.Cycle-1]})
		}
	}
	if len(xys) == 0 {
		return
	}
	sc, err := plotter.NewScatter(xys)
	if err != nil {
		return
	}
	sc.Color, sc.Shape, sc.Radius = color.NRGBA{R: 220, A: 255}, draw.RingGlyph{}, vg.Points(7)
	p.Add(sc)
	if !*named {
		leg.Add("flagged cycle", sc)
		*named = true
	}
}
