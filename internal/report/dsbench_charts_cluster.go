package report

import (
	"fmt"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/dbgauge/dbgauge/internal/results"
)

// The cluster's measures over time (a run on a replicated cluster): one
// diagram per kind of measure the engine charts, against the seconds
// since the first scale's cycles began, every scale's cycles in turn.
//
//	cluster_lag        how far each standby is behind, in seconds, one
//	                   line per standby as its primary sees it;
//	cluster_queue      changes waiting to be applied, one line per node;
//	cluster_conflicts  transactions and queries that replication made
//	                   fail, per second, one line per node.
var clusterCharts = []struct {
	name, chart, title, y string
	perNode               bool // add up a node's measures into one line
}{
	{"cluster_lag", "lag", "replication lag", "lag [s]", false},
	{"cluster_queue", "queue", "replication queue", "waiting to be applied", false},
	{"cluster_conflicts", "conflicts", "replication conflicts", "conflicts [per s]", true},
}

// clusterChart draws the measures charted as chart; nil when the run has
// none.
func clusterChart(r *results.DSBenchResults, chart, title, y string, perNode bool) (*figure, vg.Length, error) {
	lines := map[string]plotter.XYs{}
	var order []string
	var t0 time.Time // the earliest scale's start
	for _, s := range r.Scales {
		if cs := s.ClusterSeries; cs != nil && (t0.IsZero() || cs.Start.Before(t0)) {
			t0 = cs.Start
		}
	}
	for i := range r.Scales {
		cs := r.Scales[i].ClusterSeries
		if cs == nil {
			continue
		}
		off := cs.Start.Sub(t0).Seconds()
		for _, n := range cs.Nodes {
			sum := make([]float64, len(n.T))
			summed := false
			for _, m := range n.Measures {
				if m.Chart != chart {
					continue
				}
				if perNode {
					for j, v := range m.Values {
						sum[j] += v
					}
					summed = true
					continue
				}
				name := fmt.Sprintf("node %d: %s", n.Node+1, m.Name)
				if _, ok := lines[name]; !ok {
					order = append(order, name)
				}
				for j, v := range m.Values {
					lines[name] = append(lines[name], plotter.XY{X: off + n.T[j], Y: v})
				}
			}
			if summed {
				name := fmt.Sprintf("node %d", n.Node+1)
				if _, ok := lines[name]; !ok {
					order = append(order, name)
				}
				for j, v := range sum {
					lines[name] = append(lines[name], plotter.XY{X: off + n.T[j], Y: v})
				}
			}
		}
	}
	if len(order) == 0 {
		return nil, 0, nil
	}
	p := newPlot(dsbTitle(r, title), "time since the first scale's cycles began [s]", y)
	p.Y.Min = 0
	leg := newLegend()
	for i, name := range order {
		l, err := plotter.NewLine(lines[name])
		if err != nil {
			return nil, 0, err
		}
		c, dashes, _ := seriesStyle(i)
		l.Color, l.Dashes, l.Width = c, dashes, vg.Points(1.2)
		p.Add(l)
		leg.Add(name, l)
	}
	p.X.Tick.Marker = plot.DefaultTicks{}
	return withLegend(p, leg), figH, nil
}
