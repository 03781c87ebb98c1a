package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/nodes"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// DSBenchPlan is a validated stress sweep (docs/dsbench.md): nothing
// touched yet. Mode names the registered workload (workload.Lookup; the
// "mode" of stored results). Form "" means the workload's procedure where
// the engine has one.
type DSBenchPlan struct {
	Mode, Form string
	// WorkloadOptions configure a workload that takes options
	// (workload.Configurable); nil for one that takes none.
	WorkloadOptions           json.RawMessage
	Scales                    []int64
	Cycles                    int
	Duration                  time.Duration
	Nodes, Threads, Conns     int
	Retry, Prepare, Reconnect bool
	Isolation                 dbms.Isolation
	Rate                      float64
	Confidence                []float64
	Seed                      uint64
	Drop                      bool
	RawTimes                  bool
	// Remote, if set, runs the load on remote agents (Nodes of them).
	Remote *RemoteNodes
	// Spread places the clients on the nodes of a cluster (a URL of
	// several hosts): one of SpreadPolicies.
	Spread string
	// BackoffCap and GiveUp pace the attempts after transient faults
	// under Retry or Reconnect (driver.Config); 0 takes the defaults.
	BackoffCap, GiveUp time.Duration
	// Fault, if set, crashes a node of the cluster under load in the
	// first scale measured (failover.go).
	Fault *NodeFault
	// CheckAcks tags every writing transaction (a workload.Tagger's) and
	// checks, after each cycle, that every one acknowledged to a client is
	// in the database (always done in the scale a Fault strikes).
	CheckAcks bool
	// Session are statements every client session runs first (SET
	// synchronous_commit = ...): the settings whose cost two runs,
	// compared, show.
	Session []string
}

// dsbenchRun is one sweep in progress.
type dsbenchRun struct {
	// w is the plan's workload.
	w      workload.Workload
	url    string
	e      dbms.Engine // the control session: population, checks, cleanup
	opened *opened     // holds e too, to close it at the end
	plan   DSBenchPlan
	run    *results.Run
	res    *results.DSBenchResults
	pr     *progress.Printer
	// clients run the transactions and count what the checks need.
	clients *dsbenchClients
	// spread places the clients on a cluster's nodes (nil: one server);
	// cluster samples the nodes' replication measures (nil: none).
	spread  *spread
	cluster *clusterSampler
	// failover is the node fault still to come (nil: none, or done);
	// faulting is the one of the scale being measured.
	failover, faulting *failoverRun
	// ackCheck is where the scale's checks of acknowledged writes go
	// (the failover's, or the scale's with --check-acks; nil: none).
	ackCheck *results.AckCheck
	// master hands the load to remote agents (nil: a local run).
	master *nodes.Master
	// nodeLost is set when an agent was lost during the scale
	// (--tolerate-node-loss): its commits are unknown from then on, since
	// its sessions may still commit what they had in flight whenever its
	// process runs again (a stopped one continued), until the scale ends.
	nodeLost bool
	// measuring is set while a scale's cycles run; load samples taken
	// then add into load (under loadMu: the sampler has its own goroutine).
	measuring atomic.Bool
	loadMu    sync.Mutex
	load      loadSums
	// server is the server's processes, found by the first scale (the
	// server stays the same process tree for the run; findServer asks the
	// control session and may walk every process's fds).
	server *foundServer
	// live is the run's stream and its viewers' requests (nil: none);
	// popTime and popScale add up the scales populated so far, for the
	// ETA the progress goroutine tells (under etaMu).
	live     *Live
	etaMu    sync.Mutex
	popTime  time.Duration
	popScale int64
}

// foundServer is what findServer said.
type foundServer struct {
	srv      *serverProcs
	embedded bool
}

// dsbenchScale measures one scale: population, the cycles with their
// consistency checks and cleanups, and the scale's statistics.
func (r *dsbenchRun) dsbenchScale(ctx context.Context, x int64) (*results.ScaleResult, error) {
	// Consistent only once a check has run and found nothing.
	sr := &results.ScaleResult{Scale: x, Seed: scaleSeed(r.plan.Seed, x), ConfidenceTPS: map[string]float64{}}
	checks := 0
	r.nodeLost = false
	// A fault during the population (a restart) makes a resilient sweep
	// populate the scale again from the start, on a new control session.
	var pop *population
	var popFaults driver.ErrorCounts
	r.live.phase(x, "populating")
	err := r.control(ctx, &popFaults, func(e dbms.Engine) (err error) {
		open := func(ctx context.Context) (dbms.Engine, error) { return openControl(ctx, r.opened.url) }
		pop, err = populate(ctx, e, open, r.w, x, r.plan.Form, r.pr)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("scale %d: %w", x, err)
	}
	if m := popFaults.Map(); m != nil {
		r.warn(fmt.Sprintf("scale %d: populated again after faults of the server: %v", x, m))
	}
	sr.DBSizeBytes = pop.sizeBytes
	r.populated(x, pop.drop+pop.populate+pop.primaryKey+pop.foreignKey)
	sr.DropS, sr.PopulateS, sr.PrimaryKeyS, sr.ForeignKeyS = pop.drop.Seconds(), pop.populate.Seconds(), pop.primaryKey.Seconds(), pop.foreignKey.Seconds()
	sr.KeysInPopulate = len(pop.keyedTables) > 0
	for _, n := range pop.notes {
		r.warn(fmt.Sprintf("scale %d: %s", x, n))
	}
	r.clients.scale.Store(x)
	r.clients.take()
	ck := r.w.NewCheck(x)
	if lc, ok := ck.(workload.LoadChecker); ok {
		var bad []string
		var faults driver.ErrorCounts
		if err := r.control(ctx, &faults, func(e dbms.Engine) (err error) {
			bad, err = lc.CheckLoaded(ctx, e)
			return err
		}); err != nil {
			return nil, fmt.Errorf("scale %d: the check after the load: %w", x, err)
		}
		r.inconsistent(sr, x, "after the load", bad)
	}
	var cleanup time.Duration
	checkErrs := map[int]*driver.ErrorCounts{} // per cycle: faults of its check, retried
	inDoubt := map[int]int64{}
	check := func(ctx context.Context, cycle int, elapsed time.Duration) error {
		// Load samples of the checks and cleanups are not the transactions'.
		r.measuring.Store(false)
		defer r.measuring.Store(true)
		r.live.phase(x, "checking consistency")
		start := time.Now()
		waiting := func(err error) {
			r.pr.Line("scale %d, cycle %d: the database is locked (%v): the consistency check waits up to %v", x, cycle, err, checkLockWait)
		}
		faults := new(driver.ErrorCounts)
		checkErrs[cycle] = faults
		err := r.control(ctx, faults, func(e dbms.Engine) error {
			return whileLocked(ctx, checkLockWait, waiting, func(ctx context.Context) error { return ck.Read(ctx, e) })
		})
		if err == nil {
			err = r.checkAcked(ctx, faults, cycle)
		}
		if err != nil {
			// Not an inconsistency: the check could not read, so the
			// scale's consistency is unknown, and the run ends here.
			sr.Consistent = false
			sr.Unchecked = fmt.Sprintf("after cycle %d: %v", cycle, err)
			return err
		}
		n := r.clients.take()
		n.Unknown, n.Elapsed = r.nodeLost, elapsed
		inDoubt[cycle] = n.InDoubt
		checks++
		if checks == 1 && len(sr.Inconsistency) == 0 {
			sr.Consistent = true // unless the check after the load found otherwise
		}
		// After a lost agent its commits are unknown: the workload checks
		// what holds whatever they were.
		r.inconsistent(sr, x, fmt.Sprintf("after cycle %d", cycle), ck.Verify(n))
		if f, ok := ck.(workload.Figurer); ok {
			r.figures(sr, x, cycle, f.Figures())
		}
		if fc, ok := ck.(workload.FinalChecker); ok && cycle == r.plan.Cycles {
			var bad []string
			if err := r.control(ctx, faults, func(e dbms.Engine) (err error) {
				return whileLocked(ctx, checkLockWait, waiting, func(ctx context.Context) (err error) {
					bad, err = fc.CheckFinal(ctx, e)
					return err
				})
			}); err != nil {
				sr.Consistent = false
				sr.Unchecked = fmt.Sprintf("the scale's final check: %v", err)
				return err
			}
			r.inconsistent(sr, x, "at the scale's end", bad)
		}
		if err := r.control(ctx, faults, func(e dbms.Engine) error {
			return whileLocked(ctx, checkLockWait, waiting, func(ctx context.Context) error { return ck.Cleanup(ctx, e) })
		}); err != nil {
			return fmt.Errorf("clean up after the check: %w", err)
		}
		cleanup += time.Since(start)
		return nil
	}
	if r.server == nil {
		srv, how, embedded := findServer(ctx, r.e, r.url)
		r.server = &foundServer{srv: srv, embedded: embedded}
		r.res.ServerProcesses = how
	}
	srv, embedded := r.server.srv, r.server.embedded
	cpu := &cpuMeter{server: srv}
	cfg, closeRaw := r.driverConfig(x, func(ctx context.Context, cycle int, c driver.CycleResult) error {
		// The cycle's CPU ends here; the next cycle's begins once the
		// check and the cleanup are done.
		cpu.stop()
		defer cpu.start()
		r.run.Journal().Append(results.DSBenchCycle{Scale: x, Cycle: cycle, Committed: c.Committed, Failed: c.Failed, TPS: c.TPS(),
			Errors: c.Errors.Map(), Reconnects: c.Reconnects, Cluster: r.spread.served(&c)})
		faults := ""
		if c.Errors.Transient() > 0 || c.Reconnects > 0 {
			faults = fmt.Sprintf("  faults: %s; %d reconnect attempts", report.ErrorCounts(c.Errors.Map()), c.Reconnects)
		}
		r.pr.Line("scale %-6d cycle %2d/%d  %9.1f tps  %d committed  %d failed%s", x, cycle, r.plan.Cycles, c.TPS(), c.Committed, c.Failed, faults)
		r.liveCycle(x, cycle, &c)
		if err := check(ctx, cycle, c.Stopped.Sub(c.Start)); err != nil {
			return err
		}
		if cycle == r.plan.Cycles {
			return nil
		}
		// A viewer's stop ends the sweep here, with this cycle checked
		// and kept; after a scale's last cycle the scale completes first
		// and the stop comes before the next one (units.do).
		if r.live.stopRequested() {
			return r.live.stopErr()
		}
		r.live.phase(x, "load")
		return nil
	})
	// On a cluster, the clients' nodes must have the population first.
	if err := r.spread.catchUp(ctx, r.e); err != nil {
		return sr, err
	}
	fr := r.armFault(ctx, &cfg, sr)
	r.startLoad()
	r.cluster.start()
	r.live.phase(x, "load")
	// The first cycle's CPU counts from here, so it includes opening the
	// client sessions (the driver has no hook at a cycle's start); what
	// follows the last cycle's check (closing the sessions, or a cycle cut
	// short, whose transactions count nowhere) is dropped.
	cpu.start()
	dres, nodesOut, runErr := r.runLoad(ctx, x, cfg)
	cpu.discard()
	load := r.stopLoad()
	sr.ClusterMeasures, sr.ClusterSeries = r.cluster.stop()
	if ferr := r.faultDone(fr, sr); ferr != nil && runErr == nil {
		runErr = ferr
	}
	if err := closeRaw(); err != nil && runErr == nil {
		runErr = fmt.Errorf("raw times: %w", err)
	}
	if checks == 0 && sr.Unchecked == "" {
		sr.Inconsistency = append(sr.Inconsistency, "no cycle finished, so consistency was never checked")
	}
	sr.CleanupS = cleanup.Seconds()
	if dres != nil && len(dres.Cycles) > 0 {
		if err := r.summarize(sr, dres); err != nil && runErr == nil {
			runErr = err
		}
		scaleFaults(sr, dres, checkErrs, inDoubt)
		if nodesOut != nil {
			if err := r.nodeResults(sr, nodesOut); err != nil && runErr == nil {
				runErr = err
			}
		}
		if n := float64(sr.Transactions); n > 0 {
			sr.WriteKBPerTx = float64(load.writeBytes) / 1024 / n
			sr.NetBytesPerTx = float64(load.netBytes) / n
			sr.IOWaitMSPerTx = load.iowaitMS / n
		}
	}
	fillCPU(sr, cpu)
	if r.master != nil {
		// The clients ran on the agents: their CPU is theirs, added up,
		// not this process's; a share of several machines is no one
		// figure, so it is unknown.
		sr.ClientCPUS, sr.ClientCPUPerTxUS, sr.ClientCPUShare = 0, nil, nil
		for _, nr := range sr.NodeRates {
			sr.ClientCPUS += nr.ClientCPUS
		}
		if sr.Transactions > 0 {
			us := 1e6 * sr.ClientCPUS / float64(sr.Transactions)
			sr.ClientCPUPerTxUS = &us
		}
	}
	if !embedded {
		if w := clientCPUWarning(x, sr.ClientCPUShare, clientCPUWarnShare); w != "" {
			r.warn(w)
		}
	}
	return sr, runErr
}

// inconsistent records a check's violations in the scale's result, when
// (after the load, after cycle 3) they were found, and tells them.
func (r *dsbenchRun) inconsistent(sr *results.ScaleResult, x int64, when string, bad []string) {
	for _, v := range bad {
		sr.Consistent = false
		sr.Inconsistency = append(sr.Inconsistency, when+": "+v)
		r.warn(fmt.Sprintf("scale %d, %s: inconsistent: %s", x, when, v))
	}
}

// summarize turns the driver's counts into the scale's row (equations 1-11).
func (r *dsbenchRun) summarize(sr *results.ScaleResult, d *driver.Result) error {
	sr.CycleDetail = d.Details()
	sr.Types, sr.TypeCycles = d.TypeFigures(), d.TypeCycles()
	r.limits(sr, sr.Scale, d)
	sr.ClusterCycles, sr.ClusterNodes = r.spread.scale(d)
	st, err := stats.SummarizeScale(threadCycles(sr.CycleDetail), len(d.Cycles), r.plan.Duration.Seconds())
	if err != nil {
		return err
	}
	sr.Cycles, sr.MedianTPS, sr.MeanTPS, sr.StddevTPS, sr.MinTPS, sr.MaxTPS = st.Cycles, st.Median, st.Mean, st.StdDev, st.Min, st.Max
	sr.Transactions, sr.Failed, sr.ResidenceS, sr.EffectiveS, sr.F = st.Transactions, st.Failed, st.ResidenceS, st.EffectiveS, st.F
	if d.Residence != nil && d.Residence.TotalCount() > 0 {
		q := func(p float64) float64 { return float64(d.Residence.ValueAtQuantile(p*100)) / 1e6 }
		if sr.ConfidenceTPS, err = stats.ConfidenceRates(st.F, r.plan.Confidence, q); err != nil {
			return err
		}
		sr.Residence = quantilePoints(d.Residence)
		name := fmt.Sprintf("residence_scale%d.hlog", sr.Scale)
		if err := writeHistogramLog(r.run, name, d); err != nil {
			return err
		}
		sr.HistogramFile = name
	}
	if d.Response != nil && d.Response.TotalCount() > 0 {
		sr.Response = quantilePoints(d.Response)
		sr.Lag = &results.LagSummary{
			MeanMS: d.Lag.Mean() / 1e3, MaxMS: float64(d.Lag.Max()) / 1e3, P99MS: float64(d.Lag.ValueAtQuantile(99)) / 1e3,
		}
	}
	return nil
}

// threadCycles are a scale's stored counts as the statistics take them.
func threadCycles(ds []results.CycleDetail) []stats.ThreadCycle {
	rows := make([]stats.ThreadCycle, len(ds))
	for i, cd := range ds {
		rows[i] = stats.ThreadCycle(cd)
	}
	return rows
}

// quantilePoints samples a histogram's distribution for the freq diagram.
func quantilePoints(h *hdr.Histogram) []results.QuantilePoint {
	var out []results.QuantilePoint
	for _, q := range []float64{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 97, 99, 99.5, 99.7, 99.9, 99.95, 99.99, 99.999, 100} {
		out = append(out, results.QuantilePoint{Quantile: q / 100, Micros: float64(h.ValueAtQuantile(q))})
	}
	return out
}

// RunDSBench is the whole sweep over the plan's scales; see dsbench_run.go.

// dsiSettings names what a DSI depends on (docs/dsbench.md §4): it is comparable only
// between runs with the same values.
func dsiSettings(p DSBenchPlan, engine string) string {
	scales := make([]string, len(p.Scales))
	for i, s := range p.Scales {
		scales[i] = fmt.Sprint(s)
	}
	s := fmt.Sprintf("engine=%s mode=%s form=%s scales=%s nodes=%d threads=%d connections=%d cycles=%d duration=%s isolation=%s retry=%v prepare=%v reconnect=%v rate=%g",
		engine, p.Mode, p.Form, strings.Join(scales, ","), max(p.Nodes, 1), p.Threads, max(p.Conns, 1), p.Cycles, p.Duration, p.Isolation, p.Retry, p.Prepare, p.Reconnect, p.Rate)
	if len(p.Session) > 0 {
		s += fmt.Sprintf(" session=%q", strings.Join(p.Session, "; "))
	}
	return s
}

// finish computes the DSI and the scale ranges over the scales measured.
func (r *dsbenchRun) finish() {
	var xs []int64
	var ts []float64
	var failed []int64
	sort.Slice(r.res.Scales, func(i, j int) bool { return r.res.Scales[i].Scale < r.res.Scales[j].Scale })
	for _, s := range r.res.Scales {
		if len(s.Cycles) != r.plan.Cycles {
			continue // an unfinished scale has no official rate
		}
		xs, ts, failed = append(xs, s.Scale), append(ts, s.MedianTPS), append(failed, s.Failed)
	}
	r.res.DSISettings = dsiSettings(r.plan, r.res.Engine)
	if dsi, err := stats.DSI(xs, ts); err == nil {
		r.res.DSI = &dsi
	} else if len(xs) > 1 {
		r.warn("no DSI: " + err.Error())
	}
	clients := max(r.plan.Nodes, 1) * max(r.plan.Threads, 1)
	if rs, err := stats.ScaleRanges(stats.RangeCurve{Scales: xs, Medians: ts, Failed: failed, Clients: clients, Writes: r.w.Writes() && r.w.Scale().RowPerUnit}); err == nil {
		for _, x := range rs {
			r.res.Ranges = append(r.res.Ranges, results.ScaleRange(x))
		}
	}
}

func (r *dsbenchRun) warn(msg string) {
	r.res.Warnings = append(r.res.Warnings, msg)
	r.run.Journal().Append(results.JournalWarning(msg))
	r.pr.Line("warning: %s", msg)
}

// loadSums adds up the load samples of one scale's cycles.
type loadSums struct {
	writeBytes, netBytes int64
	iowaitMS             float64
}

func (r *dsbenchRun) startLoad() {
	r.loadMu.Lock()
	r.load = loadSums{}
	r.loadMu.Unlock()
	r.measuring.Store(true)
}

func (r *dsbenchRun) stopLoad() loadSums {
	r.measuring.Store(false)
	r.loadMu.Lock()
	defer r.loadMu.Unlock()
	return r.load
}

// addLoad takes one sample while the cycles run.
func (r *dsbenchRun) addLoad(s sysinfo.Sample) {
	if !r.measuring.Load() {
		return
	}
	r.loadMu.Lock()
	defer r.loadMu.Unlock()
	r.load.writeBytes += s.Disk.WriteBytes
	r.load.netBytes += s.Net.RxBytes + s.Net.TxBytes
	// iowait is a share of all CPUs' time over the interval.
	r.load.iowaitMS += s.CPU.IOWait / 100 * s.Interval.Seconds() * 1000 * float64(runtime.NumCPU())
}
