package experiment

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// served is what each node of the cluster served in cycle c (nil without
// a cluster): every node, one that served nothing with zeros.
func (s *spread) served(c *driver.CycleResult) []results.ClusterServed {
	if s == nil {
		return nil
	}
	by := map[int]driver.TargetResult{}
	for _, t := range c.ByTarget() {
		by[t.Target] = t
	}
	out := make([]results.ClusterServed, len(s.nodes))
	for i := range s.nodes {
		t := by[i]
		out[i] = servedOf(i, t.Committed, t.Failed, t.Errors, t.Residence, c.Demanded)
	}
	return out
}

// scale is the scale's cycles per node and each node over them all.
func (s *spread) scale(d *driver.Result) ([]results.ClusterCycle, []results.ClusterNodeServed) {
	if s == nil || len(d.Cycles) == 0 {
		return nil, nil
	}
	cycles := make([]results.ClusterCycle, len(d.Cycles))
	tps := make([][]float64, len(s.nodes))
	hists := make([]*hdr.Histogram, len(s.nodes))
	sums := make([]driver.TargetResult, len(s.nodes))
	for i := range hists {
		hists[i] = driver.NewHistogram()
	}
	var demanded time.Duration
	for ci := range d.Cycles {
		c := &d.Cycles[ci]
		demanded += c.Demanded
		cycles[ci] = results.ClusterCycle{Cycle: c.Cycle, Nodes: s.served(c)}
		for _, t := range c.ByTarget() {
			if t.Target < len(s.nodes) {
				sums[t.Target].Committed += t.Committed
				sums[t.Target].Failed += t.Failed
				sums[t.Target].Errors.Add(t.Errors)
				hists[t.Target].Merge(t.Residence)
			}
		}
		for i, n := range cycles[ci].Nodes {
			tps[i] = append(tps[i], n.TPS)
		}
	}
	nodes := make([]results.ClusterNodeServed, len(s.nodes))
	for i := range s.nodes {
		nodes[i] = results.ClusterNodeServed{
			ClusterServed: servedOf(i, sums[i].Committed, sums[i].Failed, sums[i].Errors, hists[i], demanded),
			MedianTPS:     stats.Median(tps[i]),
		}
	}
	return cycles, nodes
}

// servedOf is one node's counts over a time, with its residence times.
func servedOf(node int, committed, failed int64, errs driver.ErrorCounts, h *hdr.Histogram, d time.Duration) results.ClusterServed {
	s := results.ClusterServed{Node: node, Transactions: committed, Failed: failed, Errors: errs.Map()}
	if d > 0 {
		s.TPS = float64(committed) / d.Seconds()
	}
	if h != nil && h.TotalCount() > 0 {
		ms := func(us float64) float64 { return us / 1e3 }
		s.MeanMS = ms(h.Mean())
		s.P50MS = ms(float64(h.ValueAtQuantile(50)))
		s.P95MS = ms(float64(h.ValueAtQuantile(95)))
		s.P99MS = ms(float64(h.ValueAtQuantile(99)))
	}
	return s
}
