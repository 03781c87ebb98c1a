package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestClusterSize runs the same short sweep on 1, 2 and 3 nodes of a
// three-node Galera cluster (writes, all to the first node) and of a
// PostgreSQL primary with two standbys (reads, round robin): each size a
// complete, consistent dsbench run of its own, the clients only on the
// nodes of the size, the rate and residence times against the number of
// nodes in results.json, the table and the diagram; every node running
// again at the end; and `dbgauge report` rewriting every file of the run
// from results.json alone. The Galera sweep checks every acknowledged
// write (--check-acks) at every size.
func TestClusterSize(t *testing.T) {
	for _, tc := range []struct {
		name, kind string
		mode       string
		spread     string
		everyNode  bool // every node of a size serves clients
		acks       bool // --check-acks
	}{
		{"galera", "galera", "tpcb", "writes-to-first", false, true},
		{"postgres-standbys", "postgres", "select", "round-robin", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := servertest.StartCluster(t, tc.kind, server.ClusterOptions{Nodes: 3})
			tmp := t.TempDir()
			if code, _, stderr := run("clustersize", "--cluster", c.Dir, "--sizes", "4", "--out", filepath.Join(tmp, "bad")); code != 2 || !strings.Contains(stderr, "--sizes 4: the cluster in") {
				t.Errorf("--sizes 4 of 3 nodes: exit %d, %q: want 2 and the --sizes line", code, stderr)
			}
			if code, _, stderr := run("clustersize", "--cluster", c.Dir, "--mode", "select", "--check-acks", "--out", filepath.Join(tmp, "bad")); code != 2 || !strings.Contains(stderr, "--check-acks: --mode select") {
				t.Errorf("--check-acks of reads: exit %d, %q: want 2 and the --check-acks line", code, stderr)
			}
			if _, err := os.Stat(filepath.Join(tmp, "bad")); !os.IsNotExist(err) {
				t.Errorf("bad input left %s behind", filepath.Join(tmp, "bad"))
			}
			dir := filepath.Join(tmp, "run")
			args := []string{"clustersize", "--cluster", c.Dir, "--mode", tc.mode, "--spread", tc.spread,
				"--cycles", "2", "--duration", "2s", "--threads", "4", "--out", dir}
			if tc.acks {
				args = append(args, "--check-acks")
			}
			code, stdout, stderr := run(args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			b, err := os.ReadFile(filepath.Join(dir, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			var res results.ClusterSizeResults
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			if !res.Complete || len(res.Sizes) != 3 || len(res.Cluster) != 3 {
				t.Fatalf("complete %v, %d sizes, %d nodes: want a complete run of sizes 1, 2, 3 on 3 nodes", res.Complete, len(res.Sizes), len(res.Cluster))
			}
			for i, p := range res.Sizes {
				if p.Nodes != i+1 || !p.Complete || !p.Consistent || p.MedianTPS <= 0 || len(p.CyclesTPS) != 2 || !(p.P50MS > 0 && p.P50MS <= p.P95MS && p.P95MS <= p.P99MS) {
					t.Errorf("size %d: %+v: want a complete, consistent sweep on %d nodes with its rate and quantiles", i+1, p, i+1)
				}
				if _, err := os.Stat(filepath.Join(dir, p.Dir, "results.json")); err != nil {
					t.Errorf("size %d: its sweep's run directory: %v", p.Nodes, err)
				}
				if checked := p.Acks != nil && p.Acks.Checked && p.Acks.Acked > 0; checked != tc.acks || (p.Acks != nil && p.Acks.LostAcked != 0) {
					t.Errorf("size %d: acknowledged writes %+v: want checked %v, none lost", p.Nodes, p.Acks, tc.acks)
				}
				if p.Nodes == 1 {
					continue // one server: no spread
				}
				if len(p.Served) != p.Nodes {
					t.Errorf("size %d: %d nodes served: want the %d of the size", p.Nodes, len(p.Served), p.Nodes)
					continue
				}
				for j, n := range p.Served {
					if busy := n.Transactions > 0; busy != (tc.everyNode || j == 0) {
						t.Errorf("size %d: node %d served %d transactions under %s", p.Nodes, j+1, n.Transactions, tc.spread)
					}
				}
			}
			if txt, _ := os.ReadFile(filepath.Join(dir, "clustersize.txt")); strings.Contains(string(txt), "acknowledged") != tc.acks {
				t.Errorf("clustersize.txt:\n%s\nwant the acknowledged and lost columns with --check-acks only", txt)
			}
			for _, f := range []string{"clustersize.txt", "clustersize.csv", "clustersize.svg", "clustersize.png", "report.html"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("%s: %v", f, err)
				}
			}
			now, err := server.LoadCluster(c.Dir)
			if err != nil {
				t.Fatal(err)
			}
			for i := range now.Nodes {
				if !now.Running(i) {
					t.Errorf("node %d does not run after the sweep", i+1)
				}
			}
			regenerates(t, dir, filepath.Join(tmp, "copy"))
		})
	}
	t.Run("bad-input", func(t *testing.T) {
		t.Parallel()
		empty := t.TempDir()
		for _, tc := range []struct {
			args []string
			want string
		}{
			{nil, "--cluster DIR is required"},
			{[]string{"--cluster", empty}, "--cluster " + empty + ": no cluster of dbgauge's there"},
		} {
			dir := filepath.Join(t.TempDir(), "run")
			code, _, stderr := run(append(append([]string{"clustersize"}, tc.args...), "--out", dir)...)
			if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("%v: exit %d, %q: want 2 and one line with %q", tc.args, code, stderr, tc.want)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("%v: bad input left %s behind", tc.args, dir)
			}
		}
	})
}
