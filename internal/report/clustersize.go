package report

import (
	"fmt"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/dbgauge/dbgauge/internal/results"
)

// The files of a clustersize run: the table of rate and residence times
// against the number of nodes, as text and CSV, and its diagram.
func init() {
	RegisterFiles("clustersize", func(r results.Results) (map[string][]byte, error) {
		res := r.(*results.ClusterSizeResults)
		t := ClusterSizeTable(res)
		files := map[string][]byte{"clustersize.txt": t.TextBytes(), "clustersize.csv": t.CSVBytes()}
		charts := map[string][]byte{}
		var err error
		if f := clusterSizeChart(res); f != nil {
			err = renderChart(charts, "clustersize", 9*vg.Inch, 8*vg.Inch, f)
		}
		return withCharts(files, charts, err)
	})
}

// ClusterSizeTable is one row per size: the rate (median, mean, min and
// max of the cycles' rates), the residence times, the failed trials and
// the consistency, and the sweep's directory.
func ClusterSizeTable(r *results.ClusterSizeResults) *Table {
	t := &Table{Title: []string{fmt.Sprintf("%s at scale %d, clients spread %s, %d threads x %d connections, %d cycles of %gs", r.WorkloadTitle(), r.Scale, r.Spread, r.Threads, r.Connections, r.Cycles, r.DurationS)}}
	head := []string{"nodes", "median tps", "mean tps", "min tps", "max tps", "p50 ms", "p95 ms", "p99 ms", "transactions", "failed", "failed by class", "consistent"}
	acks := false
	for _, p := range r.Sizes {
		acks = acks || p.Acks != nil
	}
	if acks {
		head = append(head, "acknowledged", "lost")
	}
	t.Rows = [][]string{append(head, "run")}
	for _, p := range r.Sizes {
		consistent := strconv.FormatBool(p.Consistent)
		if p.Error != "" {
			consistent += " (" + p.Error + ")"
		}
		row := []string{strconv.Itoa(p.Nodes), f1(p.MedianTPS), f1(p.MeanTPS), f1(p.MinTPS), f1(p.MaxTPS),
			f3(p.P50MS), f3(p.P95MS), f3(p.P99MS), strconv.FormatInt(p.Transactions, 10), strconv.FormatInt(p.Failed, 10), ErrorCounts(p.Errors), consistent}
		if acks {
			acked, lost := "-", "-"
			if p.Acks != nil {
				acked, lost = strconv.FormatInt(p.Acks.Acked, 10), strconv.FormatInt(p.Acks.LostAcked, 10)
			}
			row = append(row, acked, lost)
		}
		t.Rows = append(t.Rows, append(row, p.Dir))
	}
	return t
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
func f3(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

// clusterSizeChart draws the rate against the number of nodes (median
// line, the cycles' minimum and maximum as bars) above the residence
// times' p50, p95 and p99 against it; nil with no size measured.
func clusterSizeChart(r *results.ClusterSizeResults) *figure {
	var med, p50, p95, p99 plotter.XYs
	var errs plotter.YErrors
	for _, p := range r.Sizes {
		if p.MedianTPS <= 0 {
			continue
		}
		x := float64(p.Nodes)
		med = append(med, plotter.XY{X: x, Y: p.MedianTPS})
		errs = append(errs, struct{ Low, High float64 }{p.MedianTPS - p.MinTPS, p.MaxTPS - p.MedianTPS})
		p50, p95, p99 = append(p50, plotter.XY{X: x, Y: p.P50MS}), append(p95, plotter.XY{X: x, Y: p.P95MS}), append(p99, plotter.XY{X: x, Y: p.P99MS})
	}
	if len(med) == 0 {
		return nil
	}
	title := fmt.Sprintf("%s %s at scale %d, clients spread %s", r.Engine, r.WorkloadTitle(), r.Scale, r.Spread)
	top := newPlot(title, "nodes", "rate [tps]")
	bottom := newPlot("", "nodes", "residence time [ms]")
	ticks := plot.ConstantTicks{}
	for _, p := range r.Sizes {
		ticks = append(ticks, plot.Tick{Value: float64(p.Nodes), Label: strconv.Itoa(p.Nodes)})
	}
	for _, p := range []*plot.Plot{top, bottom} {
		p.X.Tick.Marker = ticks
		p.X.Min, p.X.Max = med[0].X-0.3, med[len(med)-1].X+0.3
		p.Y.Min = 0
	}
	leg, latLeg := newLegend(), newLegend()
	if th := linePoints(top, 0, med); th != nil {
		leg.Add("median (bars: min..max)", th...)
	}
	if eb, err := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{med, errs}); err == nil {
		top.Add(eb)
	}
	for i, c := range []struct {
		name string
		xys  plotter.XYs
	}{{"p50", p50}, {"p95", p95}, {"p99", p99}} {
		if th := linePoints(bottom, i+1, c.xys); th != nil {
			latLeg.Add(c.name, th...)
		}
	}
	return layout([][]*plot.Plot{{top}, {bottom}}, vg.Points(4), leg, latLeg)
}
