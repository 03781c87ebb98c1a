package results

import (
	"fmt"
	"strings"
)

// Throughput against cluster size as stored results know it.
func init() {
	Register(Kind{
		Name:     "clustersize",
		Title:    "throughput against cluster size",
		New:      func() Results { return &ClusterSizeResults{} },
		Headline: func(r Results) Headline { return clusterSizeHeadline(r.(*ClusterSizeResults)) },
		Bench:    func(w *BenchWriter, r Results, dir string) { benchClusterSize(w, r.(*ClusterSizeResults)) },
	})
}

// clusterSizeHeadline is the median rate at each size.
func clusterSizeHeadline(r *ClusterSizeResults) Headline {
	if len(r.Sizes) == 0 {
		return Headline{Label: "tps by nodes", Text: "no size measured"}
	}
	parts := make([]string, len(r.Sizes))
	for i, p := range r.Sizes {
		parts[i] = fmt.Sprintf("%d: %.1f", p.Nodes, p.MedianTPS)
	}
	return Headline{Label: "median tps by nodes", Text: strings.Join(parts, ", ")}
}

// ClusterSize: per size, one line per cycle with its rate.
func benchClusterSize(w *BenchWriter, r *ClusterSizeResults) {
	for _, p := range r.Sizes {
		name := []string{"ClusterSize", "mode=" + r.Mode, "spread=" + r.Spread, "nodes=" + itoa(int64(p.Nodes))}
		for _, tps := range p.CyclesTPS {
			w.Line(name, 1, BenchValue{tps, "tx/s"})
		}
	}
}
