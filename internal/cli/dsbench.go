package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// dsbenchConfidence are the confidence levels a sweep reports by default.
const dsbenchConfidence = "50,68,87,95,99,99.7"

// The DSI defaults (docs/dsbench.md §4): --dsi forces them.
var (
	dsiScales  = "1,2,5,10,20,50,100,200,500,1000,2000,5000,10000"
	dsiThreads = 16
)

// dsbenchFlags are dsbench's flags, typed: Set has validated each.
type dsbenchFlags struct {
	*sweepFlags
	fs                        *pflag.FlagSet // bound to: which flags were given
	db, out                   string
	scales                    *flagtype.List[int64]
	confidence                *flagtype.List[float64]
	nodes                     *flagtype.Value[int]
	reconnect, dsi, drop, raw bool
	rate                      *flagtype.Value[float64]
	backoff                   backoffFlags
	remote                    *nodesFlags
	fault                     *faultFlags
}

// newDSBenchFlags are the defaults.
func newDSBenchFlags() *dsbenchFlags {
	return &dsbenchFlags{
		sweepFlags: newSweepFlags(10, 60*time.Second, flagtype.Int(16).Check(flagtype.AtLeast(0, ""))),
		scales:     flagtype.Counts("1,2,5,10"),
		nodes:      flagtype.Int(1),
		rate:       flagtype.Float(0).Check(flagtype.AtLeast(0.0, "")).Check(checkRate).WithExample("1000"),
		confidence: flagtype.Percentages(dsbenchConfidence),
		backoff:    newBackoffFlags("--retry or --reconnect"),
		remote:     newNodesFlags(),
		fault:      newFaultFlags(),
	}
}

func (f *dsbenchFlags) bind(fl *pflag.FlagSet) {
	f.fs = fl
	fl.StringVar(&f.db, "db", "", "engine URL (default: SQLite in the run directory, WAL mode)")
	f.sweepFlags.bind(fl, func() {
		fl.Var(f.scales, "scales", "scales to sweep ("+scaleHelp()+"); the DSI defaults are "+dsiScales)
	}, "cycles per scale", "client threads per node (0: the main goroutine does the work)")
	fl.Var(f.nodes, "nodes", "load nodes: 1 is this process; with --listen or --nats, the number of remote agents (dbgauge agent) that run the clients")
	fl.BoolVar(&f.reconnect, "reconnect", false, "open and close a connection for every transaction")
	f.backoff.bind(fl)
	f.remote.bind(fl)
	f.fault.bind(fl)
	fl.Var(f.rate, "rate", "open loop: target transactions per second over all clients (0: closed loop)")
	fl.Var(f.confidence, "confidence", "confidence levels (percent) of the rate columns and the conf diagram")
	fl.BoolVar(&f.dsi, "dsi", false, "force the DSI defaults (scales "+dsiScales+", 16 threads, 1 connection, no retry/prepare/reconnect)")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-dsbench)")
	fl.BoolVar(&f.drop, "drop", false, "drop the tables at the end")
	fl.BoolVar(&f.raw, "raw-times", false, "also write every residence time to raw_times_scale<X>.txt")
}

func init() {
	experimentCmd[experiment.DSBenchPlan, *results.DSBenchResults]{
		name:  "dsbench",
		use:   "dsbench",
		short: "The DSBENCH stress sweep: a workload's load (TPC-B-like by default) over a series of database sizes",
		long: `Run seed 001's stress sweep of a registered workload (--workload, or --mode
under its older name; tpcb by default): for every scale (for tpcb and
select 1 branch, 10 tellers, 100,000 accounts per unit) drop and populate
the database, run --cycles cycles of --duration from threads x connections
clients, record every residence time, check consistency after every cycle,
and report the 23-column table, the five diagrams, the DSI and the load
log. The last scale's tables (for tpcb and select tpcb_branches,
tpcb_tellers, tpcb_accounts, tpcb_history) stay unless --drop.
--workload script runs your own pgbench scripts instead (--script
FILE[@WEIGHT], repeatable, and --init FILE, run at each scale with :scale
set to make your tables; docs/pgbench-scripts.md §12).

Each client of a server engine waits for its replies in the kernel, as
pgbench's and sysbench's threads do. A call whose server does not answer
within the URL's io_timeout (default 30s, e.g. ?io_timeout=5s) is a failed
trial and its session is replaced; Ctrl-C and SIGTERM stop the run at once
and keep what was measured. A server that restarts or crashes ends the run
(exit 1, finished cycles kept); with --retry or --reconnect the clients wait
it out with a capped exponential backoff (--backoff-cap, --give-up) and
results.json counts the failures by class per cycle. A local server can be named by its Unix socket
(postgres:///db?host=DIR, mysql://user@unix(PATH)/db). Per scale the run
records the client's CPU per transaction and its share of the machine, and
warns when the client took more than a quarter of the machine's CPU.`,
		flags: func() experimentFlags[experiment.DSBenchPlan] { return newDSBenchFlags() },
		run:   experiment.RunDSBench,
		summary: func(r *results.DSBenchResults, dir string) []byte {
			return dsbenchSummary(r, dir)
		},
		archive: true,
		after:   dsbenchConsistent,
	}.register()
}

// plan makes the plan from the flags, each already validated by its own
// Set, and refuses what involves several flags or the outside world: one
// line naming the flag and the fix, nothing touched.
func (f *dsbenchFlags) plan() (experiment.DSBenchPlan, error) {
	if f.dsi {
		// A flag given its DSI value is no contradiction (a resumed run
		// sets every flag the manifest recorded).
		forced := map[string]string{"scales": dsiScales, "threads": strconv.Itoa(dsiThreads), "connections": "1",
			"retry": "false", "prepare": "false", "reconnect": "false", "nodes": "1"}
		for _, name := range []string{"scales", "threads", "connections", "retry", "prepare", "reconnect", "nodes"} {
			if f.fs.Changed(name) && f.fs.Lookup(name).Value.String() != forced[name] {
				return experiment.DSBenchPlan{}, usagef("--dsi forces the DSI defaults: leave out --%s", name)
			}
		}
		// Through Set, so that the manifest records the values run.
		if err := errors.Join(f.scales.Set(dsiScales), f.threads.Set(strconv.Itoa(dsiThreads)), f.connections.Set("1"), f.nodes.Set("1")); err != nil {
			return experiment.DSBenchPlan{}, err
		}
		f.retry, f.prepare, f.reconnect = false, false, false
	}
	var p experiment.DSBenchPlan
	remote, err := f.remote.plan(f.nodes.V, f.db)
	if err != nil {
		return p, err
	}
	backoffCap, giveUp, err := f.backoff.plan(f.retry || f.reconnect)
	if err != nil {
		return p, err
	}
	fault, clusterURL, err := f.fault.plan(faultRun{resilient: f.retry || f.reconnect, remote: remote != nil, checkAcks: f.checkAcks,
		load: time.Duration(f.cycles.V) * f.duration.V})
	if err != nil {
		return p, err
	}
	if f.db == "" {
		f.db = clusterURL
	}
	p, err = f.sweepFlags.plan(f.db, fault != nil)
	if err != nil {
		return p, err
	}
	if err := f.checkScales("scales", f.scales.Values); err != nil {
		return p, err
	}
	if err := checkLoad(p.Mode, p.WorkloadOptions, workload.Load{Clients: max(f.nodes.V, 1) * max(f.threads.V, 1), Scales: f.scales.Values, Rate: f.rate.V}); err != nil {
		return p, err
	}
	types := typeBytes(p.Mode, p.WorkloadOptions)
	if remote == nil {
		if err := threadLoad(f.threads.V, f.connections.V, f.rate.V > 0).plus(types).fits(sysinfo.ReadCapacity()); err != nil {
			return p, err
		}
	} else {
		// Remote agents run the clients on their own machines (each
		// checks its own, nodes.checkRoom); the master holds the agents.
		c := sysinfo.ReadCapacity()
		if remote.Listen.Addr == "" {
			c.OpenFiles = 0 // --nats: the agents' connections are that server's
		}
		if err := nodeLoad(f.nodes.V, f.threads.V, f.rate.V > 0).fits(c); err != nil {
			return p, err
		}
	}
	if err := cycleLoad(f.cycles.V, max(f.nodes.V, 1)*max(f.threads.V, 1), f.rate.V > 0).plus(types).fits(sysinfo.ReadCapacity()); err != nil {
		return p, err
	}
	p.BackoffCap, p.GiveUp, p.Remote, p.Fault = backoffCap, giveUp, remote, fault
	p.Scales, p.Nodes, p.Reconnect, p.Rate, p.Confidence, p.Drop, p.RawTimes = f.scales.Values, f.nodes.V, f.reconnect, f.rate.V, f.confidence.Values, f.drop, f.raw
	return p, nil
}

// maxRate bounds --rate: no client machine starts ten million
// transactions a second, and a rate the clients cannot meet measures
// nothing but missed starts.
const maxRate = 10_000_000

func checkRate(r float64) error {
	if r > maxRate {
		return &flagtype.Error{Reason: fmt.Sprintf("give at most %d transactions per second: no client starts more, and a rate the clients cannot meet measures only missed starts", maxRate)}
	}
	return nil
}

// dsbenchSummary is what the terminal shows at the end: the 23-column
// table, the load per transaction, the per-type table (a workload of
// several types or timed statements), the DSI with its settings, and
// where everything is.
func dsbenchSummary(r *results.DSBenchResults, dir string) []byte {
	var b strings.Builder
	b.Write(report.DSBenchText(r))
	b.WriteString("\n")
	b.Write(report.DSBenchPerTransactionText(r))
	if report.DSBenchTypesShown(r) {
		b.WriteString("\n")
		b.Write(report.DSBenchTypes(r).TextBytes())
	}
	if t := report.DSBenchFigures(r); t != nil {
		b.WriteString("\n")
		b.Write(t.TextBytes())
	}
	if r.DSI != nil {
		fmt.Fprintf(&b, "DSI = %.3f  (%s)\n", *r.DSI, r.DSISettings)
	}
	for _, rg := range r.Ranges {
		fmt.Fprintf(&b, "range %-9s scales %d..%d: %s\n", rg.Name, rg.From, rg.To, rg.Reason)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	files := "results.txt, results.csv, results.json, results.log, *.svg, *.png, manifest.json, journal.jsonl"
	if report.DSBenchTypesShown(r) {
		files += ", per_type.txt, per_type.csv"
	}
	if len(r.Cluster) > 0 {
		files += ", cluster.txt, cluster_measures.txt, cluster.log"
	}
	for _, s := range r.Scales {
		if s.Failover != nil {
			files += ", failover.txt"
			break
		}
	}
	fmt.Fprintf(&b, "run directory: %s (%s)\n", dir, files)
	return []byte(b.String())
}

func (f *dsbenchFlags) target() (db, out string) { return f.db, f.out }

// dsbenchConsistent fails a sweep that finished but failed a consistency
// check: its rates are of a database that lost or invented money.
func dsbenchConsistent(res *results.DSBenchResults, err error) error {
	if err != nil {
		return openFilesLimit(err, "--threads or --connections")
	}
	for _, s := range res.Scales {
		if !s.Consistent {
			return fmt.Errorf("scale %d failed its consistency check: %s", s.Scale, strings.Join(s.Inconsistency, "; "))
		}
		if err := lostAcks(fmt.Sprintf("scale %d", s.Scale), s.Acks, "acks.txt"); err != nil {
			return err
		}
	}
	return nil
}

// lostAcks fails a run whose check of acknowledged writes (--check-acks)
// found some missing: the engine told a client a transaction committed
// and lost it. A --fault's scale reports its losses instead (its check
// is in the failover's figures, not here): losing writes a crashed
// primary had not shipped is what an asynchronous standby is measured
// for.
func lostAcks(where string, a *results.AckCheck, see string) error {
	if a == nil || a.LostAcked == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s: the engine acknowledged commits it did not keep (see %s)", where, report.AckLine(a), see)
}
