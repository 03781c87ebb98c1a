package htmlreport

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

func init() {
	RegisterPage(PageKind{Name: "clustersize", Doc: (*Run).clusterSizeDoc, Metrics: clusterSizeMetrics})
}

// clusterSize is the run's results; nil when the run is not a clustersize run.
func (r *Run) clusterSize() *results.ClusterSizeResults {
	res, _ := r.Results.(*results.ClusterSizeResults)
	return res
}

// clusterSizeDoc is the page of throughput against cluster size: the
// median rate at each size first, then the diagram and the table, with
// each size's sweep named (a dsbench run directory of its own).
func (r *Run) clusterSizeDoc(d *Doc) error {
	s := r.clusterSize()
	d.Title = fmt.Sprintf("Throughput against cluster size: %s on %s %s", s.WorkloadTitle(), s.Engine, s.EngineVersion)
	for _, p := range s.Sizes {
		d.Summary = append(d.Summary, Headline{Label: fmt.Sprintf("%d nodes", p.Nodes), Value: fmt.Sprintf("%.1f tps", p.MedianTPS),
			Note: fmt.Sprintf("p95 %.3f ms", p.P95MS)})
		if !p.Consistent {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%d nodes: the sweep was not consistent or did not finish (%s): see %s", p.Nodes, p.Error, p.Dir))
		}
	}
	charts, err := r.charts()
	d.Sections = append(d.Sections, chartSections(charts, []diagram{{"clustersize", "Rate and residence times against the number of nodes", clusterSizeReading(s)}})...)
	d.Sections = append(d.Sections, Section{ID: "sizes", Title: "Every size", Table: report.ClusterSizeTable(s)})
	return err
}

// clusterSizeReading says what was run at each size.
func clusterSizeReading(s *results.ClusterSizeResults) string {
	return fmt.Sprintf("At each size k the cluster ran its first k nodes alone (the others stopped cleanly, then started again), and the same sweep ran on them: %s at scale %d, %d cycles of %g s, %d threads x %d connections, the clients spread %s over the k nodes. "+
		"The rate is the median of the cycles' rates (bars: the slowest and the fastest cycle); the residence times are over every cycle. Each size's sweep is a run directory of its own (nodesK), with its per-node counts and the nodes' replication measures.",
		s.WorkloadTitle(), s.Scale, s.Cycles, s.DurationS, s.Threads, s.Connections, s.Spread)
}

// clusterSizeMetrics are, per size, the rate (the cycles are its
// repetitions) and the p95 residence time (one value).
func clusterSizeMetrics(r *Run) []Metric {
	s := r.clusterSize()
	chart := &LineChart{Name: "compare_clustersize", Title: "rate against the number of nodes", XLabel: "nodes", YLabel: "rate [tps]",
		Reading: "The median rate of each size's cycles, one curve per run."}
	var out []Metric
	for _, p := range s.Sizes {
		m := Metric{Key: cmpKey("rate|%d", p.Nodes), Label: fmt.Sprintf("rate on %d nodes", p.Nodes), Short: fmt.Sprintf("tps %d", p.Nodes),
			Unit: "tps", Better: stats.BiggerIsBetter, Samples: p.CyclesTPS, Line: &LinePlace{Chart: chart, X: float64(p.Nodes)}}
		if len(p.CyclesTPS) == 0 {
			m.Missing = "no cycle"
		}
		out = append(out, m)
	}
	for _, p := range s.Sizes {
		m := Metric{Key: cmpKey("p95|%d", p.Nodes), Label: fmt.Sprintf("p95 residence time on %d nodes", p.Nodes), Short: fmt.Sprintf("p95 %d", p.Nodes),
			Unit: "ms", Better: stats.SmallerIsBetter, Samples: []float64{p.P95MS}}
		if p.P95MS <= 0 {
			m.Missing = "not measured"
		}
		out = append(out, m)
	}
	return out
}
