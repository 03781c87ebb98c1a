package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/workload/tpcb"
)

// The DSI defaults (specs/dsbench.md §4): --dsi forces them.
var (
	dsiScales  = "1,2,5,10,20,50,100,200,500,1000,2000,5000,10000"
	dsiThreads = 16
)

type dsbenchFlags struct {
	db, mode, form, scales, isolation, confidence, seed, out string
	cycles, threads, connections, nodes                      int
	duration                                                 time.Duration
	retry, prepare, reconnect, dsi, drop, raw                bool
	rate                                                     float64
}

func init() { registerCommand("dsbench", newDSBench) }

func newDSBench(stdout, stderr io.Writer) *cobra.Command {
	var f dsbenchFlags
	cmd := &cobra.Command{
		Use:   "dsbench",
		Short: "The DSBENCH stress sweep: TPC-B-like or SELECT load over a series of database sizes",
		Long: `Run seed 001's stress sweep: for every scale (1 branch, 10 tellers, 100,000
accounts per unit) drop and populate the database, run --cycles cycles of
--duration from threads x connections clients, record every residence time,
check consistency after every cycle, and report the 23-column table, the
five diagrams, the DSI and the load log. The last scale's tables
(tpcb_branches, tpcb_tellers, tpcb_accounts, tpcb_history) stay unless --drop.

Each client of a server engine waits for its replies in the kernel, as
pgbench's and sysbench's threads do. A call whose server does not answer
within the URL's io_timeout (default 30s, e.g. ?io_timeout=5s) is a failed
trial and its session is replaced; Ctrl-C and SIGTERM stop the run at once
and keep what was measured. A local server can be named by its Unix socket
(postgres:///db?host=DIR, mysql://user@unix(PATH)/db). Per scale the run
records the client's CPU per transaction and its share of the machine, and
warns when the client took more than a quarter of the machine's CPU.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.dsi {
				for _, name := range []string{"scales", "threads", "connections", "retry", "prepare", "reconnect", "nodes"} {
					if cmd.Flags().Changed(name) {
						return usagef("--dsi forces the DSI defaults: leave out --%s", name)
					}
				}
				f.scales, f.threads, f.connections, f.retry, f.prepare, f.reconnect, f.nodes = dsiScales, dsiThreads, 1, false, false, false, 1
			}
			plan, err := f.plan()
			if err != nil {
				return err
			}
			out := f.out
			if out == "" {
				out = results.DefaultDir(defaultRunsDir, "dsbench", time.Now())
			}
			if err := results.CheckWritable(out); err != nil {
				return usagef("%v", err)
			}
			setup := experiment.DSBenchSetup{DB: f.db, Dir: out, Command: redactArgs(os.Args), Config: redactConfig(effectiveFlags(cmd.Flags())), Version: Version()}
			pr := progress.New(stderr)
			res, err := experiment.RunDSBench(cmd.Context(), setup, plan, pr)
			if errors.Is(err, experiment.ErrNoProcedure) {
				return usagef("%v", err)
			}
			if res != nil {
				stdout.Write(dsbenchSummary(res, out))
				finishRun(stdout, stderr, out, "", true)
			}
			if err == nil {
				for _, s := range res.Scales {
					if !s.Consistent {
						return fmt.Errorf("scale %d failed its consistency check: %s", s.Scale, strings.Join(s.Inconsistency, "; "))
					}
				}
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.db, "db", "", "engine URL (default: SQLite in the run directory, WAL mode)")
	fl.StringVar(&f.mode, "mode", "tpcb", "tpcb (the TPC-B transaction) or select (read one account)")
	fl.StringVar(&f.form, "form", "", "procedure (one server-side call per transaction; the default on PostgreSQL and MariaDB; Firebird 3 breaks atomicity in it under conflicts) or statements")
	fl.StringVar(&f.scales, "scales", "1,2,5,10", "scales to sweep (1 scale = 100,000 accounts); the DSI defaults are "+dsiScales)
	fl.IntVar(&f.cycles, "cycles", 10, "cycles per scale")
	fl.DurationVar(&f.duration, "duration", 60*time.Second, "demanded duration D of a cycle")
	fl.IntVar(&f.nodes, "nodes", 1, "load nodes (1: local; remote nodes are not implemented yet)")
	fl.IntVar(&f.threads, "threads", 16, "client threads per node (0: the main goroutine does the work)")
	fl.IntVar(&f.connections, "connections", 1, "connections per thread, used round robin")
	fl.BoolVar(&f.retry, "retry", false, "repeat a failed transaction with the same inputs until it commits")
	fl.BoolVar(&f.prepare, "prepare", false, "prepare the statements once per session")
	fl.BoolVar(&f.reconnect, "reconnect", false, "open and close a connection for every transaction")
	fl.StringVar(&f.isolation, "isolation", "repeatable-read", "repeatable-read, read-committed or serializable")
	fl.Float64Var(&f.rate, "rate", 0, "open loop: target transactions per second over all clients (0: closed loop)")
	fl.StringVar(&f.confidence, "confidence", "50,68,87,95,99,99.7", "confidence levels (percent) of the rate columns and the conf diagram")
	fl.BoolVar(&f.dsi, "dsi", false, "force the DSI defaults (scales "+dsiScales+", 16 threads, 1 connection, no retry/prepare/reconnect)")
	fl.StringVar(&f.seed, "seed", "1", "seed of the transaction inputs")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-dsbench)")
	fl.BoolVar(&f.drop, "drop", false, "drop the tables at the end")
	fl.BoolVar(&f.raw, "raw-times", false, "also write every residence time to raw_times_scale<X>.txt")
	addConfigFlag(cmd)
	return cmd
}

func (f *dsbenchFlags) plan() (experiment.DSBenchPlan, error) {
	var p experiment.DSBenchPlan
	if f.mode != "tpcb" && f.mode != "select" {
		return p, usagef("--mode %q: choose tpcb or select", f.mode)
	}
	if f.form != "" && f.form != "procedure" && f.form != "statements" {
		return p, usagef("--form %q: choose procedure or statements", f.form)
	}
	scales, err := parseSizes("scales", f.scales)
	if err != nil {
		return p, err
	}
	seen := map[int64]bool{}
	for _, x := range scales {
		if seen[x] {
			return p, usagef("--scales: %d is given twice", x)
		}
		seen[x] = true
	}
	for _, x := range scales {
		if err := tpcb.CheckScale(x); err != nil {
			return p, usagef("--scales: %v", err)
		}
	}
	switch {
	case f.cycles < 1:
		return p, usagef("--cycles %d: at least one cycle is needed", f.cycles)
	case f.duration <= 0:
		return p, usagef("--duration %s: must be positive", f.duration)
	case f.threads < 0:
		return p, usagef("--threads %d: must not be negative", f.threads)
	case f.connections < 1:
		return p, usagef("--connections %d: at least one", f.connections)
	case f.nodes != 1:
		return p, usagef("--nodes %d: remote load nodes are not implemented yet; use 1", f.nodes)
	case f.rate < 0:
		return p, usagef("--rate %g: must not be negative", f.rate)
	}
	iso, err := dbms.ParseIsolation(f.isolation)
	if err != nil {
		return p, usagef("--isolation: %v", err)
	}
	var levels []float64
	for _, part := range strings.Split(f.confidence, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil || v <= 0 || v >= 100 {
			return p, usagef("--confidence %q: %q is not a percentage between 0 and 100", f.confidence, part)
		}
		levels = append(levels, v)
	}
	seed, err := parseSeed(f.seed)
	if err != nil {
		return p, err
	}
	return experiment.DSBenchPlan{
		Mode: f.mode, Form: f.form, Scales: scales, Cycles: f.cycles, Duration: f.duration,
		Nodes: f.nodes, Threads: f.threads, Conns: f.connections, Retry: f.retry, Prepare: f.prepare, Reconnect: f.reconnect,
		Isolation: iso, Rate: f.rate, Confidence: levels, Seed: seed, Drop: f.drop, RawTimes: f.raw,
	}, nil
}

// dsbenchSummary is what the terminal shows at the end: the 23-column
// table, the DSI with its settings, and where everything is.
func dsbenchSummary(r *results.DSBenchResults, dir string) []byte {
	var b strings.Builder
	b.Write(report.DSBenchText(r))
	b.WriteString("\n")
	b.Write(report.DSBenchPerTransactionText(r))
	if r.DSI != nil {
		fmt.Fprintf(&b, "DSI = %.3f  (%s)\n", *r.DSI, r.DSISettings)
	}
	for _, rg := range r.Ranges {
		fmt.Fprintf(&b, "range %-9s scales %d..%d: %s\n", rg.Name, rg.From, rg.To, rg.Reason)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	fmt.Fprintf(&b, "run directory: %s (results.txt, results.csv, results.json, results.log, *.svg, *.png, manifest.json, journal.jsonl) and %s.tar.gz\n", dir, dir)
	return []byte(b.String())
}
