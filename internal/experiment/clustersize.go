package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// NodeResizer is a cluster whose nodes a run may stop and start again:
// one that dbgauge started, so that it knows their processes. Nodes are
// numbered from 0 in the order of Addrs.
type NodeResizer interface {
	Addrs() []string
	// Running says whether node i's server runs.
	Running(i int) bool
	// StopNode shuts node i down cleanly (it leaves the cluster).
	StopNode(i int) error
	// StartNode starts node i again and returns once it is in step.
	StartNode(ctx context.Context, i int) error
}

// ClusterSizePlan is throughput and latency against the number of nodes
// (dbgauge clustersize): for each size k the cluster runs nodes 1 to k
// alone (the others stopped), and the same one-scale sweep runs on them,
// the clients spread over the k nodes.
type ClusterSizePlan struct {
	Sizes   []int
	Cluster NodeResizer
	// URL names every node of the cluster, in node order.
	URL string
	// Sweep is the sweep run at every size: one scale.
	Sweep DSBenchPlan
}

// RunClusterSize runs the sweep at every size into DIR/nodesK (each a
// dsbench run directory of its own, with its cluster measures and
// per-node counts), then writes the rate and the residence times against
// the number of nodes. Every node runs again at the end, whatever
// happened.
func RunClusterSize(ctx context.Context, s Setup, plan ClusterSizePlan, pr *progress.Printer) (*results.ClusterSizeResults, error) {
	s.DB = plan.URL
	w, err := workload.NewConfigured(plan.Sweep.Mode, plan.Sweep.WorkloadOptions)
	if err != nil {
		return nil, dbms.Wrap(dbms.BadInput, err)
	}
	var sp *spread
	o, err := open(ctx, s, "clustersize", plan.Sweep.Seed, nil, func(e dbms.Engine) (err error) {
		// Every node must answer now: the run would measure another
		// cluster than the one named.
		sp, err = newSpread(ctx, plan.URL, plan.Sweep.Spread)
		return err
	})
	if err != nil {
		return nil, err
	}
	defer o.close()
	o.e.Close() // each size's sweep has its own sessions
	o.e = nil
	sw := plan.Sweep
	res := &results.ClusterSizeResults{Header: results.Header{Experiment: "clustersize", Engine: o.man.Engine.Engine, EngineVersion: o.man.Engine.Version},
		Mode: sw.Mode, Workload: workloadInfo(w), Spread: sw.Spread, Scale: sw.Scales[0], Cycles: sw.Cycles, DurationS: sw.Duration.Seconds(),
		Threads: max(sw.Threads, 1), Connections: max(sw.Conns, 1), Session: sw.Session}
	if sp != nil {
		res.Cluster = sp.nodes
	}
	pr.Line("dbgauge clustersize on %s %s: %s at scale %d, sizes %v of %d nodes, run directory %s",
		res.Engine, res.EngineVersion, sw.Mode, res.Scale, plan.Sizes, len(plan.Cluster.Addrs()), o.run.Dir)
	u, err := dbms.ParseURL(plan.URL)
	if err != nil {
		return nil, err
	}
	var runErr error
	for _, k := range plan.Sizes {
		if runErr = resize(ctx, plan.Cluster, k, pr); runErr != nil {
			break
		}
		name := fmt.Sprintf("nodes%d", k)
		sub := Setup{DB: u.WithHosts(u.Hosts[:k]).Raw, Dir: filepath.Join(o.run.Dir, name), Command: s.Command, Config: s.Config, Version: s.Version, Tags: s.Tags}
		if runErr = os.MkdirAll(sub.Dir, 0o755); runErr != nil {
			break
		}
		pr.Line("%d of %d nodes: %s", k, len(plan.Cluster.Addrs()), sub.DB)
		d, err := RunDSBench(ctx, sub, sw, pr)
		p := sizePoint(k, name, d, err)
		res.Sizes = append(res.Sizes, p)
		o.run.Journal().Append(p)
		if err := o.run.WriteJSON(results.ResultsFile, res); err != nil { // nothing measured is lost
			pr.Line("warning: results.json not written: %v", err)
		}
		if err != nil {
			runErr = fmt.Errorf("%d nodes: %w", k, err)
			break
		}
		line := fmt.Sprintf("%d nodes: median %.1f tps, p50 %.3f ms, p95 %.3f ms, p99 %.3f ms, %d failed, consistent %v", k, p.MedianTPS, p.P50MS, p.P95MS, p.P99MS, p.Failed, p.Consistent)
		if p.Acks != nil {
			line += ", " + report.AckLine(p.Acks)
		}
		pr.Line("%s", line)
	}
	// The cluster is whole again, whatever happened (a Ctrl-C too).
	if err := resize(context.WithoutCancel(ctx), plan.Cluster, len(plan.Cluster.Addrs()), pr); err != nil {
		runErr = andErr(runErr, fmt.Errorf("start every node again: %w", err))
	}
	runErr = runOutcome(ctx, o.run, runErr, &res.Complete, &res.Error)
	cerr := writeOutputs(o.run, res)
	now := time.Now().UTC()
	o.man.Finished = &now
	o.man.Notes = append(o.man.Notes, res.Warnings...)
	runErr = andErr(runErr, andErr(cerr, o.run.WriteJSON("manifest.json", o.man)))
	return res, runErr
}

// resize makes nodes 0..k-1 run and the others not: the nodes beyond k
// stop from the last, those missing start from the first.
func resize(ctx context.Context, c NodeResizer, k int, pr *progress.Printer) error {
	n := len(c.Addrs())
	for i := n - 1; i >= k; i-- {
		if c.Running(i) {
			pr.Line("stopping node %d (%s)", i+1, c.Addrs()[i])
			if err := c.StopNode(i); err != nil {
				return err
			}
		}
	}
	for i := 0; i < k; i++ {
		if !c.Running(i) {
			pr.Line("starting node %d (%s)", i+1, c.Addrs()[i])
			start := time.Now()
			if err := c.StartNode(ctx, i); err != nil {
				return err
			}
			pr.Line("node %d in step after %.1f s", i+1, time.Since(start).Seconds())
		}
	}
	return nil
}

// sizePoint is what the sweep on k nodes measured (d may be partial or
// nil after an error).
func sizePoint(k int, dir string, d *results.DSBenchResults, err error) results.ClusterSizePoint {
	p := results.ClusterSizePoint{Nodes: k, Dir: dir}
	if err != nil {
		p.Error = err.Error()
	}
	if d == nil || len(d.Scales) == 0 {
		return p
	}
	sr := d.Scales[0]
	p.Complete, p.Consistent = d.Complete, sr.Consistent
	p.CyclesTPS, p.MedianTPS, p.MeanTPS, p.MinTPS, p.MaxTPS = sr.Cycles, sr.MedianTPS, sr.MeanTPS, sr.MinTPS, sr.MaxTPS
	p.Transactions, p.Failed, p.Errors = sr.Transactions, sr.Failed, sr.Errors
	p.P50MS, p.P95MS, p.P99MS = residenceMS(sr.Residence, 0.5), residenceMS(sr.Residence, 0.95), residenceMS(sr.Residence, 0.99)
	p.Served, p.Measures, p.Acks = sr.ClusterNodes, sr.ClusterMeasures, sr.Acks
	return p
}

// residenceMS is the residence time at quantile q in ms, from the points
// the sweep stores (quantilePoints samples q exactly).
func residenceMS(pts []results.QuantilePoint, q float64) float64 {
	for _, p := range pts {
		if p.Quantile >= q-1e-9 {
			return p.Micros / 1000
		}
	}
	return 0
}
