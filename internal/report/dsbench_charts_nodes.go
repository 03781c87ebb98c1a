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

// nodeLine is one node's line of the node diagram: its name (with its
// status when it did not run to the end), its median rate per scale, and
// the mean with the min..max of its cycle rates per scale.
type nodeLine struct {
	Node   int
	Label  string
	Median plotter.XYs
	Mean   plotter.XYs
	Errs   plotter.YErrors
}

// nodeLines are the lines of the node diagram, in node order, and the
// total (the scale's median rate): the values nodeChart draws. A cycle in
// which a node was lost is left out of its bars: what it sent before is
// no rate of the whole cycle.
func nodeLines(r *results.DSBenchResults) (lines []nodeLine, total plotter.XYs) {
	byNode := map[int]*nodeLine{}
	label := map[int]string{}
	for _, a := range r.Agents {
		label[a.Node] = a.Name
		if a.Status != "ok" && a.Status != "" {
			label[a.Node] += " (" + a.Status + ")"
		}
	}
	for _, s := range r.Scales {
		x := float64(s.Scale)
		total = append(total, plotter.XY{X: x, Y: s.MedianTPS})
		cycles := map[int][]float64{}
		for _, c := range s.NodeCycles {
			for _, n := range c.Nodes {
				if !n.Lost {
					cycles[n.Node] = append(cycles[n.Node], n.TPS)
				}
			}
		}
		for _, n := range s.NodeRates {
			l := byNode[n.Node]
			if l == nil {
				l = &nodeLine{Node: n.Node, Label: label[n.Node]}
				if l.Label == "" { // a node the agents list lacks: drawn by its own name
					l.Label = n.Name
				}
				byNode[n.Node] = l
			}
			l.Median = append(l.Median, plotter.XY{X: x, Y: n.MedianTPS})
			if sum := stats.Summarize(cycles[n.Node]); sum.N > 0 && sum.Mean > 0 {
				l.Mean = append(l.Mean, plotter.XY{X: x, Y: sum.Mean})
				l.Errs = append(l.Errs, struct{ Low, High float64 }{sum.Mean - sum.Min, sum.Max - sum.Mean})
			}
		}
	}
	for _, l := range byNode {
		lines = append(lines, *l)
	}
	slices.SortFunc(lines, func(a, b nodeLine) int { return cmp.Compare(a.Node, b.Node) })
	return lines, total
}

// nodeChart is the rate per node diagram of seed 001 §4.1.2, for a sweep
// on remote load nodes: per node (by name, in node order) its median rate
// (NodeRate.MedianTPS) against scale as a line, with the mean and the
// min..max of its cycle rates as a point with bars, and the total (the
// scale's median rate) as a heavier black line. Rates are transactions
// over the demanded duration D. The seed omits the diagram for a local
// run, and so does dbgauge.
func nodeChart(r *results.DSBenchResults) (*figure, vg.Length, error) {
	if !DSBenchDistributed(r) {
		return nil, 0, nil
	}
	lines, total := nodeLines(r)
	var all []float64
	for _, t := range total {
		all = append(all, t.Y)
	}
	for _, l := range lines {
		for k, m := range l.Median {
			all = append(all, m.Y)
			if k < len(l.Mean) {
				all = append(all, l.Mean[k].Y-l.Errs[k].Low, l.Mean[k].Y+l.Errs[k].High)
			}
		}
	}
	p := newPlot(dsbTitle(r, "rate per node"), "", "rate [tps]")
	if !scaleAxis(p, r) || !logAxis(&p.Y, all, nil) {
		return nil, 0, nil
	}
	leg := newLegend()
	for i, l := range lines {
		th := linePoints(p, i, positiveXY(l.Median))
		if len(l.Mean) > 0 {
			errs := slices.Clone(l.Errs)
			for k := range errs { // a bar may not reach below the log axis
				errs[k].Low = math.Min(errs[k].Low, l.Mean[k].Y-p.Y.Min)
			}
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{l.Mean, errs})
			if err != nil {
				return nil, 0, err
			}
			eb.Color, _, _ = seriesStyle(i)
			p.Add(eb)
		}
		if th != nil {
			leg.Add(l.Label, th...)
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
