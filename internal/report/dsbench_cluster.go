package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
)

// DSBenchClusterTable is what each node of the cluster served, per scale:
// its role when the run began, its transactions and failed trials (by
// class; conflicts between nodes are failed trials of class deadlock on
// Galera, serialization on a PostgreSQL standby), its
// median rate over the cycles and its residence times. nil for a run on
// one server.
func DSBenchClusterTable(r *results.DSBenchResults) *Table {
	if len(r.Cluster) == 0 {
		return nil
	}
	t := &Table{Rows: [][]string{{"scale", "node", "address", "role", "transactions", "failed", "failed by class", "median tps", "mean ms", "p50 ms", "p95 ms", "p99 ms"}}}
	for _, s := range r.Scales {
		for _, n := range s.ClusterNodes {
			addr, role := clusterNode(r, n.Node)
			t.Rows = append(t.Rows, []string{strconv.FormatInt(s.Scale, 10), strconv.Itoa(n.Node + 1), addr, role,
				strconv.FormatInt(n.Transactions, 10), strconv.FormatInt(n.Failed, 10), ErrorCounts(n.Errors),
				fmt.Sprintf("%.1f", n.MedianTPS), fmt.Sprintf("%.3f", n.MeanMS), fmt.Sprintf("%.3f", n.P50MS), fmt.Sprintf("%.3f", n.P95MS), fmt.Sprintf("%.3f", n.P99MS)})
		}
	}
	return t
}

// DSBenchClusterMeasuresTable is each node's replication measures over
// each scale's cycles (sampled once a second into cluster.log): the
// counters' increases, the levels' means and maxima, and the seconds read
// and missed. nil when none were sampled.
func DSBenchClusterMeasuresTable(r *results.DSBenchResults) *Table {
	t := &Table{Rows: [][]string{{"scale", "node", "role", "increase", "mean", "max", "seconds read", "unreadable"}}}
	for _, s := range r.Scales {
		for _, m := range s.ClusterMeasures {
			_, role := clusterNode(r, m.Node)
			t.Rows = append(t.Rows, []string{strconv.FormatInt(s.Scale, 10), strconv.Itoa(m.Node + 1), role,
				measures(m.Increase), measures(m.Mean), measures(m.Max), strconv.Itoa(m.Samples), strconv.Itoa(m.Unreadable)})
		}
	}
	if len(t.Rows) == 1 {
		return nil
	}
	return t
}

// ClusterLine says the cluster and the spread in one line.
func ClusterLine(r *results.DSBenchResults) string {
	parts := make([]string, len(r.Cluster))
	for i, n := range r.Cluster {
		parts[i] = fmt.Sprintf("node %d %s %s", n.Node+1, n.Addr, n.Role)
	}
	return fmt.Sprintf("cluster of %d nodes (%s), clients spread %s", len(r.Cluster), strings.Join(parts, ", "), r.Spread)
}

func clusterNode(r *results.DSBenchResults, i int) (addr, role string) {
	for _, n := range r.Cluster {
		if n.Node == i {
			return n.Addr, n.Role
		}
	}
	return "", ""
}

// measures writes a node's measures as "name value, ...", names in order.
func measures(m map[string]float64) string {
	return namedValues(m, func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) })
}

// DSBenchClusterFiles are a cluster run's per-node tables (cluster.txt and
// .csv; cluster_measures.txt and .csv; failover.txt and .csv) and the
// check of acknowledged writes (acks.txt and .csv, --check-acks): none
// on one server without --check-acks.
func DSBenchClusterFiles(r *results.DSBenchResults) map[string][]byte {
	files := map[string][]byte{}
	for name, t := range map[string]*Table{"cluster": DSBenchClusterTable(r), "cluster_measures": DSBenchClusterMeasuresTable(r), "failover": DSBenchFailoverTable(r), "acks": DSBenchAcksTable(r)} {
		if t != nil {
			files[name+".txt"], files[name+".csv"] = t.TextBytes(), t.CSVBytes()
		}
	}
	return files
}
