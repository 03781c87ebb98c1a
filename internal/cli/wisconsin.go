package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// wisconsinFlags are wisconsin's flags, typed: Set has validated each.
type wisconsinFlags struct {
	db, out, server string
	size            *flagtype.List[int64]
	org, dest       *flagtype.List[string]
	cache, protocol *flagtype.Value[string]
	queries         *flagtype.Value[[]int]
	seed            *flagtype.Value[uint64]
	reps            *flagtype.Value[int]
	limit           *flagtype.Value[time.Duration]
	drop            bool
	engineTime      bool
	session         []string
}

// wisconsinOrgs are the --org values, in w.Orgs' order.
var wisconsinOrgs = []string{"heap", "hash", "clustered", "nonclustered", "indexed"}

// newWisconsinFlags are the defaults.
func newWisconsinFlags() *wisconsinFlags {
	return &wisconsinFlags{
		size:     flagtype.Counts("10000").Check(w.CheckSize).WithExample("10000,100000"),
		org:      flagtype.Choices("heap,hash,clustered,nonclustered,indexed", wisconsinOrgs...).Sorted(flagtype.InAllowedOrder(wisconsinOrgs...)),
		dest:     flagtype.Choices("relation", results.DestRelation, results.DestClient, results.DestCount),
		cache:    flagtype.Choice("warm", "warm", "cold"),
		queries:  flagtype.Func("1-32", w.ParseQueries),
		seed:     flagtype.Seed("1"),
		reps:     flagtype.Int(10).Check(flagtype.AtLeast(1, "repetition")),
		limit:    flagtype.NonNegativeDuration(2 * time.Minute),
		protocol: flagtype.Choice("none", "none", "ttp"),
	}
}

func (f *wisconsinFlags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.db, "db", "", "engine URL: postgres://user@host:port/db, mysql://user:pass@host:port/db, sqlite:PATH, duckdb:PATH, firebird://user:pass@host:port//path.fdb (default: SQLite in the run directory)")
	fl.Var(f.size, "size", "base relation size N, a multiple of 100; a list runs the scale-up (e.g. 10000,100000,1000000)")
	fl.Var(f.reps, "reps", "repetitions of each query, alternating TENKTUP1 and TENKTUP2 with fresh constants")
	fl.Var(f.org, "org", "storage organisations to run (indexed: both indices, for queries 23-25 and 29-32)")
	fl.Var(f.dest, "dest", "where retrieval results go: relation, client, count (a list runs each)")
	fl.Var(f.cache, "cache", "warm, or cold (drop the OS page cache as root and the engine's cache where possible before every execution)")
	fl.Var(f.queries, "queries", "queries to run, e.g. 1-8,18,20-22")
	fl.Var(f.seed, "seed", "seed of the query constants")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-wisconsin)")
	fl.BoolVar(&f.drop, "drop", false, "drop the benchmark relations at the end")
	fl.StringVar(&f.server, "server", "", "directory of a private instance from 'dbgauge server start': with --cache cold it is restarted before every execution to empty the engine's cache")
	fl.Var(f.limit, "limit", "time limit of one execution; a query past it is reported as timed out and its other repetitions are skipped (0: none)")
	fl.Var(f.protocol, "protocol", "none (wall clock only), or ttp: time every execution with the Tucson Timing Protocol and report its computed time beside the elapsed time (protocol.txt says how)")
	fl.StringArrayVar(&f.session, "session", nil, "SQL run at the start of the session, repeatable (e.g. --session 'SET SESSION join_cache_level = 4')")
	bindEngineTime(fl, &f.engineTime, "tables.txt's table 'Where the time goes', with the time outside the engine and the effective rates")
}

func init() {
	registerCommand("wisconsin", newWisconsin)
	registerExperiment("wisconsin")
	registerResumer("wisconsin", resumeWisconsin)
}

func newWisconsin(stdout, stderr io.Writer) *cobra.Command {
	f := newWisconsinFlags()
	var pause *pauseFlags
	cmd := &cobra.Command{
		Use:   "wisconsin",
		Short: "Run the Wisconsin benchmark (32 queries, storage organisations, sizes)",
		Long: `Run the Wisconsin benchmark of Bitton, DeWitt and Turbyfill (1983), with the
scaled relations of the Gamma study (1988): four relations of base size N
(TENKTUP1, TENKTUP2, ONEKTUP, BPRIME), the 32 queries under each storage
organisation, every result cardinality checked. The relations stay in the
database afterwards unless --drop is given.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			plan, err := f.plan()
			if err != nil || checkOnly(cmd.Context()) {
				return err
			}
			setup, release, err := runSetup(cmd, "wisconsin", f.out, f.db)
			if err != nil {
				return err
			}
			defer release()
			setup.Pause = pause.policy()
			_, err = executeWisconsin(cmd.Context(), stdout, stderr, setup, "", plan)
			return err
		},
	}
	f.bind(cmd.Flags())
	pause = bindPause(cmd.Flags())
	addRunFlags(cmd)
	return cmd
}

// resumeWisconsin continues a stopped Wisconsin run (dbgauge resume).
func resumeWisconsin(ctx context.Context, stdout, stderr io.Writer, p *results.Progress, override map[string]string) error {
	plan, setup, err := storedPlan[experiment.WisconsinPlan](newWisconsinFlags(), p, override)
	if err != nil {
		return err
	}
	_, err = executeWisconsin(ctx, stdout, stderr, setup, "", plan)
	return err
}

func (f *wisconsinFlags) target() (db, out string) { return f.db, f.out }

// plan makes the plan from the flags, each already validated by its own
// Set, and refuses what involves several flags or the outside world: one
// line naming the flag and the fix, nothing touched.
func (f *wisconsinFlags) plan() (experiment.WisconsinPlan, error) {
	p := experiment.WisconsinPlan{Protocol: f.protocol.V == "ttp", Sizes: f.size.Values, Reps: f.reps.V, Dests: f.dest.Values,
		Cold: f.cache.V == "cold", Queries: f.queries.V, Seed: f.seed.V, Drop: f.drop, Limit: f.limit.V, Session: f.session,
		NoEngineTime: !f.engineTime}
	for _, o := range f.org.Values {
		p.Orgs = append(p.Orgs, w.Org(o))
	}
	if err := runsAQuery(p.Orgs, p.Queries, f.org.String(), f.queries.String()); err != nil {
		return p, err
	}
	if f.server != "" {
		restart, err := serverRestart(f.server, f.db)
		if err != nil {
			return p, err
		}
		p.Restart = restart
	}
	return p, nil
}

// runsAQuery refuses a selection of organisations and queries under which
// no query runs (--org hash --queries 1): such a run would load and
// organise the relations, measure nothing, and be cataloged complete. The
// line says which queries each organisation runs.
func runsAQuery(orgs []w.Org, queries []int, org, query string) error {
	var runs []string
	for _, o := range orgs {
		under := w.QueriesUnder(o)
		if slices.ContainsFunc(queries, func(q int) bool { return slices.Contains(under, q) }) {
			return nil
		}
		slices.Sort(under)
		runs = append(runs, fmt.Sprintf("%s runs %s", o, w.FormatQueries(slices.Compact(under))))
	}
	return usagef("--org %s --queries %s: none of these queries runs under these organisations (%s): add one of them to --queries or choose another --org", org, query, strings.Join(runs, "; "))
}

// serverRestart checks that --server names a running private instance of
// the engine --db points at, and returns its restart.
func serverRestart(dir, db string) (func(context.Context) error, error) {
	inst, err := server.Load(dir)
	if err != nil {
		return nil, usagef("--server: %v: give the --dir of an instance started by dbgauge server start", err)
	}
	if db == "" {
		return nil, usagef("--server %s: give --db too (the instance's URL is %s)", dir, inst.URL)
	}
	u, err := dbms.ParseURL(db)
	if err != nil {
		return nil, err
	}
	if u.Port != strconv.Itoa(inst.Port) || !strings.HasPrefix(inst.URL, u.Scheme+"://") && !dbms.SameEngine(u.Raw, inst.URL) {
		return nil, usagef("--server %s holds %s at %s, but --db is %s: they must name the same server", dir, inst.Engine, inst.URL, u.Redacted())
	}
	return inst.Restart, nil
}

// executeWisconsin runs a Wisconsin plan on a prepared run directory (a
// new one, or a stopped run's), prints its tables and returns its results.
func executeWisconsin(ctx context.Context, stdout, stderr io.Writer, setup experiment.Setup, catalogRoot string, plan experiment.WisconsinPlan) (*results.WisconsinResults, error) {
	outDir := setup.Dir
	pr := progress.New(stderr)
	ctx, lv, endLive := withLive(ctx, pr, true)
	setup.Live = lv
	res, err := experiment.RunWisconsin(ctx, setup, plan, pr)
	if res != nil {
		// After the tables: the report is written whatever happened,
		// and then the stream ends.
		defer func() { endLive(&res.Header, err) }()
		defer finishRun(stdout, stderr, outDir, catalogRoot, false)
	} else {
		defer endLive(nil, err)
	}
	if err != nil {
		if res != nil {
			pr.Line("run failed: %v; what was measured is in %s", err, outDir)
		}
		return res, err
	}
	summary(stdout, res, outDir)
	if failed := failures(res); failed > 0 {
		return res, fmt.Errorf("%d query results failed (mismatch or error); see tables.txt in %s", failed, outDir)
	}
	return res, nil
}

// failures counts results that are neither measured nor legitimately absent:
// a cardinality mismatch or an error other than running past --limit.
func failures(res *results.WisconsinResults) int {
	n := 0
	for _, q := range res.Queries {
		if q.Status == results.StatusMismatch || (q.Status == results.StatusError && !q.TimedOut) {
			n++
		}
	}
	return n
}

// summary prints the per-query table of the run and where it is.
func summary(out io.Writer, res *results.WisconsinResults, dir string) {
	counts := map[string]int{}
	for _, q := range res.Queries {
		counts[q.Status]++
	}
	for _, n := range res.Sizes {
		for _, t := range report.PaperTables([]*results.WisconsinResults{res}, n) {
			t.Text(out)
		}
	}
	if len(res.Sizes) > 1 {
		report.ScaleTable(res).Text(out)
	}
	fmt.Fprintf(out, "cardinality checks: %d ok, %d mismatch, %d not applicable, %d error",
		counts[results.StatusOK], counts[results.StatusMismatch], counts[results.StatusNotApplicable], counts[results.StatusError])
	if n := counts[results.StatusInterrupted]; n > 0 {
		fmt.Fprintf(out, ", %d interrupted", n)
	}
	fmt.Fprintln(out)
	for _, wmsg := range res.Warnings {
		fmt.Fprintf(out, "warning: %s\n", wmsg)
	}
	fmt.Fprintf(out, "run directory: %s (tables.txt, results.json, manifest.json, journal.jsonl)\n", dir)
}
