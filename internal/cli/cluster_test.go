package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestDSBenchOnClusters runs short sweeps across a three-node Galera
// cluster and a PostgreSQL primary with two standbys, both on loopback:
// the clients spread over the nodes as --spread says, every trial
// counted for the node it went to, the per-node counts adding up to each
// cycle's, the cluster's nodes and roles in results.json.
func TestDSBenchOnClusters(t *testing.T) {
	t.Run("galera", func(t *testing.T) {
		t.Parallel()
		c := servertest.StartCluster(t, "galera", server.ClusterOptions{Nodes: 3})
		// Reads on every node.
		res, dir := clusterSweep(t, c.URL, "--mode", "select", "--spread", "round-robin")
		wantRoles(t, res, results.RoleWrites, results.RoleWrites, results.RoleWrites)
		wantMeasures(t, res, dir, func(node int, m results.ClusterNodeMeasures) string {
			if _, ok := m.Increase["local_cert_failures"]; !ok || m.Max["cluster_size"] != 3 || m.Max["local_state"] != 4 {
				return "want certification failures counted, a cluster of 3, the node synced"
			}
			return ""
		})
		served := servedPerNode(t, res)
		for i, n := range served {
			if n == 0 {
				t.Errorf("node %d served no transaction under round-robin: %v", i+1, served)
			}
		}
		// Writes to the first node only (no conflicts between nodes), in
		// the procedure form, MariaDB's default on Galera too.
		res, _ = clusterSweep(t, c.URL, "--mode", "tpcb", "--spread", "writes-to-first")
		if res.Form != "procedure" {
			t.Errorf("form %q on Galera, want procedure (the default on MariaDB)", res.Form)
		}
		if served := servedPerNode(t, res); served[0] == 0 || served[1] != 0 || served[2] != 0 {
			t.Errorf("writes-to-first served %v: want all on node 1", served)
		}
		// Writes on every node, each acknowledged one looked for. Nodes
		// roll back the losers of their conflicts (brute-force aborts) and
		// tell the session with its next command, whatever it is: once a
		// prepare of COMMIT, after which the client took a no-op COMMIT
		// for its transaction's and lost it (first transactions of new
		// sessions, most runs).
		res, _ = clusterSweep(t, c.URL, "--mode", "tpcb", "--spread", "round-robin", "--retry", "--check-acks", "--threads", "8", "--duration", "4s")
		if a := res.Scales[0].Acks; a == nil || !a.Checked || a.Acked == 0 || a.LostAcked != 0 {
			t.Errorf("acknowledged writes with writes on every node: %+v: want every one checked and found", a)
		}
		if served := servedPerNode(t, res); served[0] == 0 || served[1] == 0 || served[2] == 0 {
			t.Errorf("round-robin writes served %v: want every node busy", served)
		}
		// Remote agents spread their clients too, and send their counts
		// per node with their cycles.
		sw := startAgentSweep(t, c.URL, 2, []string{"a", "b"}, "--mode", "select", "--spread", "round-robin", "--threads", "3")
		sw.succeeded(t, sw.agents["a"], sw.agents["b"])
		remote := sw.results(t)
		served = servedPerNode(t, &remote)
		for i, n := range served {
			if n == 0 {
				t.Errorf("node %d served nothing of the agents' clients under round-robin: %v", i+1, served)
			}
		}
	})
	t.Run("postgres-standbys", func(t *testing.T) {
		t.Parallel()
		c := servertest.StartCluster(t, "postgres", server.ClusterOptions{Nodes: 3})
		res, dir := clusterSweep(t, c.URL, "--mode", "select", "--spread", "reads-to-standbys")
		wantRoles(t, res, results.RoleWrites, results.RoleReadOnly, results.RoleReadOnly)
		wantMeasures(t, res, dir, func(node int, m results.ClusterNodeMeasures) string {
			if node == 0 {
				if _, ok := m.Max["replay_lag_s@n3"]; !ok || m.Max["standbys"] != 2 {
					return "want the primary's lag per standby and 2 standbys"
				}
				return ""
			}
			if _, ok := m.Increase["conflicts"]; !ok {
				return "want the standby's cancelled queries counted"
			}
			return ""
		})
		if served := servedPerNode(t, res); served[0] != 0 || served[1] == 0 || served[2] == 0 {
			t.Errorf("reads-to-standbys served %v: want nothing on the primary, both standbys busy", served)
		}
		// Writers find the primary wherever the URL puts it.
		last := c.Nodes[2].URL[strings.Index(c.Nodes[2].URL, "@")+1 : strings.LastIndex(c.Nodes[2].URL, "/")]
		first := c.Nodes[0].URL[strings.Index(c.Nodes[0].URL, "@")+1 : strings.LastIndex(c.Nodes[0].URL, "/")]
		reordered := strings.Replace(strings.Replace(c.URL, first+",", "", 1), last, last+","+first, 1)
		res, _ = clusterSweep(t, reordered, "--mode", "tpcb", "--spread", "round-robin")
		wantRoles(t, res, results.RoleReadOnly, results.RoleReadOnly, results.RoleWrites)
		if served := servedPerNode(t, res); served[0] != 0 || served[1] != 0 || served[2] == 0 {
			t.Errorf("tpcb on %s served %v: want every write on the primary (listed last)", reordered, served)
		}
		// multiuser's users, all readers, on the standbys.
		dir = filepath.Join(t.TempDir(), "mu")
		if code, _, stderr := run("multiuser", "--db", c.URL, "--spread", "reads-to-standbys", "--users", "0,1,2", "--tuples", "1000", "--reps", "2", "--retrieves", "5", "--out", dir); code != 0 {
			t.Fatalf("multiuser: exit %d\n%s", code, stderr)
		}
		var mu results.MultiuserResults
		b, err := os.ReadFile(filepath.Join(dir, "results.json"))
		if err != nil || json.Unmarshal(b, &mu) != nil {
			t.Fatalf("multiuser results.json: %v", err)
		}
		if len(mu.Cluster) != 3 || mu.Spread != "reads-to-standbys" || len(mu.UserNodes) != 2 || mu.UserNodes[0] != 1 || mu.UserNodes[1] != 2 {
			t.Errorf("multiuser on the cluster: nodes %v, spread %q, users on %v: want the two users on the two standbys (nodes 1 and 2 from 0)", mu.Cluster, mu.Spread, mu.UserNodes)
		}
	})
	t.Run("spread-needs-a-cluster", func(t *testing.T) {
		t.Parallel()
		dir := filepath.Join(t.TempDir(), "run")
		var out, errb bytes.Buffer
		code := Run(&out, &errb, []string{"dsbench", "--spread", "reads-to-standbys", "--scales", "1", "--out", dir})
		if code != 2 || !strings.Contains(errb.String(), "--spread reads-to-standbys: --db names one server") {
			t.Errorf("exit %d, %q: want 2 and the --spread line", code, errb.String())
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("bad input left %s behind", dir)
		}
	})
}

// clusterSweep runs a two-cycle sweep at scale 1 with four threads and
// returns its results, which must be complete and consistent.
func clusterSweep(t *testing.T, url string, args ...string) (*results.DSBenchResults, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	var out, errb bytes.Buffer
	all := append([]string{"dsbench", "--db", url, "--scales", "1", "--cycles", "2", "--duration", "2s", "--threads", "4", "--out", dir}, args...)
	if code := Run(&out, &errb, all); code != 0 {
		t.Fatalf("dbgauge %s: exit %d\n%s", strings.Join(all, " "), code, errb.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res results.DSBenchResults
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}

	if !res.Complete || len(res.Scales) != 1 || !res.Scales[0].Consistent {
		t.Fatalf("complete %v, %d scales, inconsistencies %v", res.Complete, len(res.Scales), res.Scales)
	}
	return &res, dir
}

func wantRoles(t *testing.T, res *results.DSBenchResults, roles ...string) {
	t.Helper()
	if len(res.Cluster) != len(roles) {
		t.Fatalf("cluster %v: want %d nodes", res.Cluster, len(roles))
	}
	for i, n := range res.Cluster {
		if n.Node != i || n.Role != roles[i] || n.Addr == "" {
			t.Errorf("cluster node %d: %+v, want role %s", i+1, n, roles[i])
		}
	}
}

// servedPerNode checks that the per-node counts add up, cycle by cycle
// and over the scale, and returns each node's transactions.
func servedPerNode(t *testing.T, res *results.DSBenchResults) []int64 {
	t.Helper()
	s := res.Scales[0]
	if len(s.ClusterCycles) != len(s.Cycles) || len(s.ClusterNodes) != len(res.Cluster) {
		t.Fatalf("%d cluster cycles for %d cycles, %d nodes for %d: want one per cycle and node", len(s.ClusterCycles), len(s.Cycles), len(s.ClusterNodes), len(res.Cluster))
	}
	perCycle := map[int]int64{}
	for _, d := range s.CycleDetail {
		perCycle[d.Cycle] += d.Committed
	}
	for _, cc := range s.ClusterCycles {
		var sum int64
		for _, n := range cc.Nodes {
			sum += n.Transactions
		}
		if sum != perCycle[cc.Cycle] || sum == 0 {
			t.Errorf("cycle %d: nodes served %d, the threads committed %d", cc.Cycle, sum, perCycle[cc.Cycle])
		}
	}
	served := make([]int64, len(s.ClusterNodes))
	var sum, failed int64
	for i, n := range s.ClusterNodes {
		served[i] = n.Transactions
		sum += n.Transactions
		failed += n.Failed
		if n.Transactions > 0 && !(n.P50MS > 0 && n.P50MS <= n.P95MS && n.P95MS <= n.P99MS && n.MedianTPS > 0) {
			t.Errorf("node %d: %+v: want its residence quantiles and rate", i+1, n)
		}
	}
	if sum != s.Transactions || failed != s.Failed {
		t.Errorf("nodes served %d and failed %d; the scale %d and %d", sum, failed, s.Transactions, s.Failed)
	}
	return served
}

// wantMeasures checks every node's replication measures of the scale,
// sampled while the cycles ran, with bad saying what is wrong with one,
// and that cluster.log holds a sample of every node.
func wantMeasures(t *testing.T, res *results.DSBenchResults, dir string, bad func(node int, m results.ClusterNodeMeasures) string) {
	t.Helper()
	ms := res.Scales[0].ClusterMeasures
	if len(ms) != len(res.Cluster) {
		t.Fatalf("%d nodes with measures, %d in the cluster", len(ms), len(res.Cluster))
	}
	for i, m := range ms {
		if m.Node != i || m.Samples < 2 || m.Unreadable != 0 {
			t.Errorf("node %d: %+v: want 2 or more samples, none missed", i+1, m)
		}
		if why := bad(i, m); why != "" {
			t.Errorf("node %d: %+v: %s", i+1, m, why)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "cluster.log"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range res.Cluster {
		if !strings.Contains(string(b), fmt.Sprintf(" node%d ", i+1)) {
			t.Errorf("cluster.log has no sample of node %d:\n%s", i+1, b)
		}
	}
}
