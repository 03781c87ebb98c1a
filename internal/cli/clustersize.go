package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// clusterSizeFlags are clustersize's flags, typed: Set has validated each.
type clusterSizeFlags struct {
	*sweepFlags
	fs                *pflag.FlagSet
	cluster, out, url string
	sizes             *flagtype.List[int64]
	scale             *flagtype.Value[int64]
}

func newClusterSizeFlags() *clusterSizeFlags {
	return &clusterSizeFlags{
		sweepFlags: newSweepFlags(5, 30*time.Second, flagtype.Int(8).Check(flagtype.AtLeast(1, "thread"))),
		sizes:      flagtype.Counts("").Sorted(flagtype.Ascending).WithExample("1,2,3"),
		scale:      flagtype.Count("1", "scale"),
	}
}

func (f *clusterSizeFlags) bind(fl *pflag.FlagSet) {
	f.fs = fl
	fl.StringVar(&f.cluster, "cluster", "", "the directory of a cluster started by dbgauge server start (required): its nodes are stopped and started to run each size")
	fl.Var(f.sizes, "sizes", "numbers of nodes to run on, each the cluster's first nodes (default: 1 up to all of them)")
	f.sweepFlags.bind(fl, func() {
		fl.Var(f.scale, "scale", "the scale of the sweep at every size ("+scaleHelp()+")")
	}, "cycles at every size", "client threads")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-clustersize)")
}

func init() {
	experimentCmd[experiment.ClusterSizePlan, *results.ClusterSizeResults]{
		name:  "clustersize",
		use:   "clustersize --cluster DIR [--sizes 1,2,3] [--workload NAME] [--spread POLICY]",
		short: "Throughput and latency against the number of nodes of a replicated cluster",
		long: `Run the same one-scale DSBENCH sweep on 1, 2, ... nodes of a cluster that
dbgauge server start made (--cluster DIR): for each size k, nodes k+1 and
up are stopped cleanly, nodes 1 to k run (started and brought in step when
they were stopped), and the clients spread over those k nodes (--spread).
Every size's sweep is a dsbench run directory of its own (DIR/nodesK), with
its consistency checks, per-node counts and replication measures. The run
reports the median rate (with the slowest and fastest cycle) and the p50,
p95 and p99 residence times against the number of nodes, as a table and a
diagram; at the end every node runs again.

Galera does not scale writes (every node applies every write set): try
--workload tpcb with --spread writes-to-first and round-robin. Hot standbys
serve reads: try --workload select with --spread round-robin (--mode is
the same choice as --workload, under its older name). A primary whose
commits wait for a synchronous standby cannot run alone: such a cluster's
sizes start at 2.`,
		flags: func() experimentFlags[experiment.ClusterSizePlan] { return newClusterSizeFlags() },
		run:   experiment.RunClusterSize,
		summary: func(r *results.ClusterSizeResults, dir string) []byte {
			return append(report.ClusterSizeTable(r).TextBytes(), runDirLine(dir, "results.json, clustersize.txt, clustersize.csv, clustersize.svg, clustersize.png, nodes1/ ...")...)
		},
		after: func(r *results.ClusterSizeResults, err error) error {
			if err != nil {
				return err
			}
			for _, p := range r.Sizes {
				if !p.Consistent {
					return fmt.Errorf("%d nodes: the sweep failed its consistency check: see %s", p.Nodes, p.Dir)
				}
				if err := lostAcks(fmt.Sprintf("%d nodes", p.Nodes), p.Acks, filepath.Join(p.Dir, "acks.txt")); err != nil {
					return err
				}
			}
			return nil
		},
	}.register()
}

// plan loads the cluster and checks the sizes against it: one line naming
// the flag and the fix, nothing touched.
func (f *clusterSizeFlags) plan() (experiment.ClusterSizePlan, error) {
	var p experiment.ClusterSizePlan
	if f.cluster == "" {
		return p, usagef("--cluster DIR is required: the directory of a cluster started by dbgauge server start galera|postgres --nodes/--standbys N --dir DIR")
	}
	c, err := loadClusterFlag(f.cluster)
	if err != nil {
		return p, err
	}
	n := len(c.Nodes)
	sizes := f.sizes.Values
	if len(sizes) == 0 {
		for k := int64(1); k <= int64(n); k++ {
			sizes = append(sizes, k)
		}
	}
	least, why := int64(1), ""
	if c.Sync {
		least, why = 2, " and its commits wait for a standby" // a synchronous primary alone waits for ever
	}
	for _, k := range sizes {
		if k < least || k > int64(n) {
			return p, usagef("--sizes %d: the cluster in %s has %d nodes%s: give sizes from %d to %d", k, f.cluster, n, why, least, n)
		}
	}
	if c.Nodes[0].Role == server.RoleStandby {
		return p, usagef("--cluster %s: sizes count from node 1, which must be the primary, and it is a standby now (%s, after a failover): start a new cluster", f.cluster, strings.Join(roles(c), ", "))
	}
	sweep, err := f.sweepFlags.plan(c.URL, false)
	if err != nil {
		return p, err
	}
	types := typeBytes(sweep.Mode, sweep.WorkloadOptions)
	if err := threadLoad(f.threads.V, f.connections.V, false).plus(types).fits(sysinfo.ReadCapacity()); err != nil {
		return p, err
	}
	if err := cycleLoad(f.cycles.V, f.threads.V, false).plus(types).fits(sysinfo.ReadCapacity()); err != nil {
		return p, err
	}
	if err := f.checkScales("scale", []int64{f.scale.V}); err != nil {
		return p, err
	}
	if err := checkLoad(sweep.Mode, sweep.WorkloadOptions, workload.Load{Clients: max(f.threads.V, 1), Scales: []int64{f.scale.V}}); err != nil {
		return p, err
	}
	sweep.Scales, sweep.Nodes, sweep.Confidence = []int64{f.scale.V}, 1, flagtype.Percentages(dsbenchConfidence).Values
	p = experiment.ClusterSizePlan{Cluster: c, URL: c.URL, Sweep: sweep}
	for _, k := range sizes {
		p.Sizes = append(p.Sizes, int(k))
	}
	f.url = c.URL
	return p, nil
}

// roles are the cluster's nodes and their roles, for messages.
func roles(c *server.Cluster) []string {
	out := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		out[i] = fmt.Sprintf("%s %s", n.Name, n.Role)
	}
	return out
}

// target is the cluster's URL (known once plan has read the cluster).
func (f *clusterSizeFlags) target() (db, out string) { return f.url, f.out }
