package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

type wisconsinFlags struct {
	db, size, org, dest, cache, queries, seed, out string
	reps                                           int
	drop                                           bool
	server                                         string
	limit                                          time.Duration
	session                                        []string
}

func newWisconsin(stdout, stderr io.Writer) *cobra.Command {
	var f wisconsinFlags
	cmd := &cobra.Command{
		Use:   "wisconsin",
		Short: "Run the Wisconsin benchmark (32 queries, storage organisations, sizes)",
		Long: `Run the Wisconsin benchmark of Bitton, DeWitt and Turbyfill (1983), with the
scaled relations of the Gamma study (1988): four relations of base size N
(TENKTUP1, TENKTUP2, ONEKTUP, BPRIME), the 32 queries under each storage
organisation, every result cardinality checked. The relations stay in the
database afterwards unless --drop is given.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			plan, err := f.plan()
			if err != nil {
				return err
			}
			_, err = runWisconsin(cmd.Context(), stdout, stderr, f.db, f.out, plan, os.Args, effectiveFlags(cmd.Flags()))
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.db, "db", "", "engine URL: postgres://user@host:port/db, mysql://user:pass@host:port/db, sqlite:PATH, duckdb:PATH, firebird://user:pass@host:port//path.fdb (default: SQLite in the run directory)")
	fl.StringVar(&f.size, "size", "10000", "base relation size N, a multiple of 100; a list runs the scale-up (e.g. 10000,100000,1000000)")
	fl.IntVar(&f.reps, "reps", 10, "repetitions of each query, alternating TENKTUP1 and TENKTUP2 with fresh constants")
	fl.StringVar(&f.org, "org", "heap,hash,clustered,nonclustered,indexed", "storage organisations to run (indexed: both indices, for queries 23-25 and 29-32)")
	fl.StringVar(&f.dest, "dest", "relation", "where retrieval results go: relation, client, count (a list runs each)")
	fl.StringVar(&f.cache, "cache", "warm", "warm, or cold (drop the OS page cache as root and the engine's cache where possible before every execution)")
	fl.StringVar(&f.queries, "queries", "1-32", "queries to run, e.g. 1-8,18,20-22")
	fl.StringVar(&f.seed, "seed", "1", "seed of the query constants")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-wisconsin)")
	fl.BoolVar(&f.drop, "drop", false, "drop the benchmark relations at the end")
	fl.StringVar(&f.server, "server", "", "directory of a private instance from 'dbgauge server start': with --cache cold it is restarted before every execution to empty the engine's cache")
	fl.DurationVar(&f.limit, "limit", 2*time.Minute, "time limit of one execution; a query past it is reported as timed out and its other repetitions are skipped (0: none)")
	fl.StringArrayVar(&f.session, "session", nil, "SQL run at the start of the session, repeatable (e.g. --session 'SET SESSION join_cache_level = 4')")
	addConfigFlag(cmd)
	return cmd
}

func (f *wisconsinFlags) plan() (experiment.WisconsinPlan, error) {
	var p experiment.WisconsinPlan
	sizes, err := parseSizes("size", f.size)
	if err != nil {
		return p, err
	}
	for _, n := range sizes {
		if err := w.CheckSize(n); err != nil {
			return p, usagef("--size: %v", err)
		}
	}
	if f.limit < 0 {
		return p, usagef("--limit %s: must not be negative (0 means no limit)", f.limit)
	}
	if f.reps < 1 {
		return p, usagef("--reps %d: at least one repetition is needed (default 10)", f.reps)
	}
	orgs, err := parseChoices("org", f.org, []string{"heap", "hash", "clustered", "nonclustered", "indexed"})
	if err != nil {
		return p, err
	}
	dests, err := parseChoices("dest", f.dest, []string{experiment.DestRelation, experiment.DestClient, experiment.DestCount})
	if err != nil {
		return p, err
	}
	cache, err := parseChoices("cache", f.cache, []string{"warm", "cold"})
	if err != nil || len(cache) != 1 {
		if err == nil {
			err = usagef("--cache: give one of warm, cold")
		}
		return p, err
	}
	qs, err := w.ParseQueries(f.queries)
	if err != nil {
		return p, usagef("%v", err)
	}
	seed, err := parseSeed(f.seed)
	if err != nil {
		return p, err
	}
	if f.server != "" {
		inst, err := server.Load(f.server)
		if err != nil {
			return p, usagef("--server: %v", err)
		}
		p.Restart = inst.Restart
	}
	p = experiment.WisconsinPlan{Restart: p.Restart, Sizes: sizes, Reps: f.reps, Dests: dests, Cold: cache[0] == "cold", Queries: qs, Seed: seed, Drop: f.drop, Limit: f.limit, Session: f.session}
	for _, o := range orgs {
		p.Orgs = append(p.Orgs, w.Org(o))
	}
	slices.SortFunc(p.Orgs, func(a, b w.Org) int { return slices.Index(w.Orgs, a) - slices.Index(w.Orgs, b) })
	return p, nil
}

// runWisconsin runs one Wisconsin plan into outDir (default under runs/)
// and writes the run directory. It returns the results and the directory.
func runWisconsin(ctx context.Context, stdout, stderr io.Writer, db, outDir string, plan experiment.WisconsinPlan, command []string, config map[string]any) (*wisconsinRun, error) {
	started := time.Now()
	if outDir == "" {
		outDir = results.DefaultDir("runs", "wisconsin", started)
	}
	if err := results.CheckWritable(outDir); err != nil {
		return nil, usagef("%v", err)
	}
	embedded := db == ""
	if embedded {
		abs, _ := filepath.Abs(outDir)
		db = "sqlite:" + filepath.Join(abs, "sqlite.db")
	} else if _, err := dbms.ParseURL(db); err != nil {
		return nil, err
	}
	pr := progress.New(stderr)
	var e dbms.Engine
	var err error
	if !embedded {
		// A server's URL is checked before anything is written.
		if e, err = dbms.Open(ctx, db); err != nil {
			return nil, err
		}
	}
	run, err := results.Create(outDir)
	if err != nil {
		return nil, usagef("%v", err)
	}
	defer run.Close()
	if embedded {
		if e, err = dbms.Open(ctx, db); err != nil {
			return nil, err
		}
	}
	defer e.Close()
	info, err := e.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("read %s version and settings: %w", e.Name(), err)
	}
	u, _ := dbms.ParseURL(db)
	man := &results.Manifest{
		Experiment: "wisconsin", Command: command, Config: config, Dbgauge: Version(), Go: goVersion(),
		Started: started.UTC(), Seed: plan.Seed, DB: u.Redacted(), Engine: info, System: sysinfo.Describe(run.Dir),
	}
	if err := run.WriteJSON("manifest.json", man); err != nil {
		return nil, err
	}
	pr.Line("dbgauge wisconsin on %s %s, sizes %v, %s, run directory %s", info.Engine, info.Version, plan.Sizes, plural(plan.Reps, "repetition"), run.Dir)
	res, runErr := experiment.Wisconsin(ctx, e, plan, run, info, pr)
	wr := &wisconsinRun{dir: run.Dir, res: res}
	if err := writeWisconsin(run, man, res); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil {
		pr.Line("run stopped: %v; what was measured is in %s", runErr, run.Dir)
		return wr, runErr
	}
	summary(stdout, res, run.Dir)
	if failed := failures(res); failed > 0 {
		return wr, fmt.Errorf("%d query results failed (mismatch or error); see tables.txt in %s", failed, run.Dir)
	}
	return wr, nil
}

// failures counts results that are neither measured nor legitimately absent:
// a cardinality mismatch or an error other than running past --limit.
func failures(res *experiment.WisconsinResults) int {
	n := 0
	for _, q := range res.Queries {
		if q.Status == experiment.StatusMismatch || (q.Status == experiment.StatusError && !q.TimedOut) {
			n++
		}
	}
	return n
}

type wisconsinRun struct {
	dir string
	res *experiment.WisconsinResults
}

// writeWisconsin writes results.json, the tables and the finished manifest.
func writeWisconsin(run *results.Run, man *results.Manifest, res *experiment.WisconsinResults) error {
	if err := run.WriteJSON("results.json", res); err != nil {
		return err
	}
	runs := []*experiment.WisconsinResults{res}
	if err := run.WriteFile("tables.txt", report.WisconsinText(runs)); err != nil {
		return err
	}
	for name, b := range report.WisconsinCSV(runs) {
		if err := run.WriteFile(name, b); err != nil {
			return err
		}
	}
	now := time.Now().UTC()
	man.Finished = &now
	if res.CacheFlush != nil {
		for _, d := range res.CacheFlush.NotDone {
			man.Notes = append(man.Notes, "cold cache: not emptied: "+d)
		}
	}
	return run.WriteJSON("manifest.json", man)
}

// summary prints the per-query table of the run and where it is.
func summary(out io.Writer, res *experiment.WisconsinResults, dir string) {
	counts := map[string]int{}
	for _, q := range res.Queries {
		counts[q.Status]++
	}
	for _, n := range res.Sizes {
		for _, t := range report.PaperTables([]*experiment.WisconsinResults{res}, n) {
			t.Text(out)
		}
	}
	if len(res.Sizes) > 1 {
		report.ScaleTable(res).Text(out)
	}
	fmt.Fprintf(out, "cardinality checks: %d ok, %d mismatch, %d not applicable, %d error\n",
		counts[experiment.StatusOK], counts[experiment.StatusMismatch], counts[experiment.StatusNotApplicable], counts[experiment.StatusError])
	for _, wmsg := range res.Warnings {
		fmt.Fprintf(out, "warning: %s\n", wmsg)
	}
	fmt.Fprintf(out, "run directory: %s (tables.txt, results.json, manifest.json, journal.jsonl)\n", dir)
}
