package experiment

import (
	"time"

	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// perNode is cycle c on each node of the cluster, in node order, a node
// that served nothing with zeros.
func (s *spread) perNode(c *driver.CycleResult) []driver.TargetResult {
	out := make([]driver.TargetResult, len(s.nodes))
	for i := range out {
		out[i] = driver.TargetResult{Target: i, Residence: driver.NewHistogram()}
	}
	for _, t := range c.ByTarget() {
		if t.Target < len(out) {
			out[t.Target].Add(t)
		}
	}
	return out
}

// served is what each node of the cluster served in cycle c (nil without
// a cluster).
func (s *spread) served(c *driver.CycleResult) []results.ClusterServed {
	if s == nil {
		return nil
	}
	return servedOf(s.perNode(c), c.Demanded)
}

// scale is the scale's cycles per node and each node over them all.
func (s *spread) scale(d *driver.Result) ([]results.ClusterCycle, []results.ClusterNodeServed) {
	if s == nil || len(d.Cycles) == 0 {
		return nil, nil
	}
	cycles := make([]results.ClusterCycle, len(d.Cycles))
	tps := make([][]float64, len(s.nodes))
	sums := s.perNode(&driver.CycleResult{})
	var demanded time.Duration
	for ci := range d.Cycles {
		c := &d.Cycles[ci]
		demanded += c.Demanded
		on := s.perNode(c)
		cycles[ci] = results.ClusterCycle{Cycle: c.Cycle, Nodes: servedOf(on, c.Demanded)}
		for i, t := range on {
			sums[i].Add(t)
			tps[i] = append(tps[i], cycles[ci].Nodes[i].TPS)
		}
	}
	nodes := make([]results.ClusterNodeServed, len(s.nodes))
	for i, n := range servedOf(sums, demanded) {
		nodes[i] = results.ClusterNodeServed{ClusterServed: n, MedianTPS: stats.Median(tps[i])}
	}
	return cycles, nodes
}

// servedOf is each node's counts over a time d, with its residence times.
func servedOf(on []driver.TargetResult, d time.Duration) []results.ClusterServed {
	out := make([]results.ClusterServed, len(on))
	for i, t := range on {
		s := results.ClusterServed{Node: t.Target, Transactions: t.Committed, Failed: t.Failed, Errors: t.Errors.Map()}
		if d > 0 {
			s.TPS = float64(t.Committed) / d.Seconds()
		}
		if h := t.Residence; h != nil && h.TotalCount() > 0 {
			s.MeanMS = h.Mean() / 1e3
			s.P50MS = float64(h.ValueAtQuantile(50)) / 1e3
			s.P95MS = float64(h.ValueAtQuantile(95)) / 1e3
			s.P99MS = float64(h.ValueAtQuantile(99)) / 1e3
		}
		out[i] = s
	}
	return out
}
