package cli

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// abtestFlags are abtest's flags, typed: Set has validated each.
type abtestFlags struct {
	db, sqlFile, server, out string
	wisconsin                *flagtype.Value[[]int]
	size                     *flagtype.Value[int64]
	cache, dest              *flagtype.Value[string]
	seed                     *flagtype.Value[uint64]
	a, b, aSession, bSession []string
	reps, warmup             *flagtype.Value[int]
	level                    *flagtype.Value[float64]
	drop, engineTime         bool
}

// newABTestFlags are the defaults.
func newABTestFlags() *abtestFlags {
	return &abtestFlags{
		wisconsin: flagtype.Func("", w.ParseQueries).WithExample("9-17").Check(func(qs []int) error {
			for _, q := range qs {
				if q >= 26 {
					return fmt.Errorf("query %d is an update; abtest compares the retrievals 1-25", q)
				}
			}
			return nil
		}),
		size:   flagtype.Count("", "size").Check(w.CheckSize),
		reps:   flagtype.Int(10).Check(flagtype.AtLeast(stats.MinABPairs, "pairs (the ratio interval needs them)")),
		warmup: flagtype.Int(1).Check(flagtype.AtLeast(0, "")),
		cache:  flagtype.Choice("warm", "warm", "cold", "both"),
		dest:   flagtype.Choice(results.DestClient, results.DestClient, results.DestCount, results.DestRelation),
		level: flagtype.Float(0.95).Check(func(l float64) error {
			if !(l > 0 && l < 1) {
				return errors.New("give a confidence level between 0 and 1 (e.g. 0.95)")
			}
			return nil
		}),
		seed: flagtype.Seed("1"),
	}
}

func (f *abtestFlags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.db, "db", "", "engine URL both variants connect to (default: SQLite in the run directory)")
	fl.StringArrayVar(&f.a, "a", nil, "variant A: an engine URL, or with --db a session statement (repeatable)")
	fl.StringArrayVar(&f.b, "b", nil, "variant B: an engine URL, or with --db a session statement (repeatable)")
	fl.StringArrayVar(&f.aSession, "a-session", nil, "SQL run at the start of variant A's session, repeatable (e.g. 'SET max_parallel_workers_per_gather = 0')")
	fl.StringArrayVar(&f.bSession, "b-session", nil, "SQL run at the start of variant B's session, repeatable")
	fl.Var(f.wisconsin, "wisconsin", "Wisconsin retrieval queries to compare, e.g. 9-17 or 1,9,12 (default 9-17, the joins)")
	fl.Var(f.size, "size", "base size N of the Wisconsin relations (default 10000)")
	fl.StringVar(&f.sqlFile, "sql", "", "file with one query per line (blank lines and -- comments skipped) on your own tables")
	fl.Var(f.reps, "reps", "pairs per query (at least 3; a verdict of a difference needs 6 or more)")
	fl.Var(f.warmup, "warmup", "untimed executions per variant before a query's warm pairs")
	fl.Var(f.cache, "cache", "warm, cold (caches emptied before every execution) or both")
	fl.Var(f.dest, "dest", "client: every row fetched by the client; count: only COUNT(*) over the query; relation: stored with CREATE TABLE AS")
	fl.Var(f.level, "level", "confidence level of the ratio interval")
	fl.StringVar(&f.server, "server", "", "directory of the private instance --db names ('dbgauge server start'): restarted before every cold execution to empty its cache")
	fl.Var(f.seed, "seed", "seed of the data and of the query constants")
	fl.BoolVar(&f.drop, "drop", false, "drop the Wisconsin relations at the end")
	bindEngineTime(fl, &f.engineTime, "compared as the client's are in abtest.txt's second table, where both engines report them")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-abtest)")
}

func init() {
	experimentCmd[experiment.ABTestPlan, *results.ABTestResults]{
		name:  "abtest",
		use:   "abtest (--a URL --b URL | --db URL --a-session SQL --b-session SQL) [--wisconsin LIST | --sql FILE]",
		short: "Compare two variants of one system on the same queries, interleaved",
		long: `A/B comparison (seed 004 Tests 5 and 8, docs/experiments.md §3): two
variants of one system run the same queries in pairs, A then B with the
same statement, repetition by repetition, so drift hits both alike. The
variants are two connection strings (--a URL --b URL) or one server with
two sets of session settings (--db URL --a-session SQL --b-session SQL,
each repeatable; --a and --b also take session statements when --db is
given: a value that is not an engine URL is a statement).

Per query: the median times of A and B, their difference, the factor
A / B, the effective rates 1 / time, the percent improvement
(rate B - rate A) / rate A x 100, a bootstrap interval of A / B over the
pairs, the Wilcoxon signed-rank p-value of the pairs and the verdict: B
faster or A faster when the interval excludes 1 and p < 0.05, otherwise
no significant difference. Fewer than 6 pairs (at --level 0.95) get "too
few repetitions": their signed-rank p-value cannot fall below 0.05 (2/32
for 5 pairs all one way), so no difference could be found at all.
--cache both puts warm and cold side by side.

--wisconsin LIST (default the joins 9-17) loads the four Wisconsin
relations of --size N once (into each database when the variants connect
to different ones) and checks every result's exact cardinality. --sql FILE
takes one query per line on your own tables; A and B must return the same
number of rows.`,
		flags: func() experimentFlags[experiment.ABTestPlan] { return newABTestFlags() },
		run:   experiment.RunABTest,
		summary: func(r *results.ABTestResults, dir string) []byte {
			return append(report.ABTestText(r), runDirLine(dir, "results.json, abtest.txt, abtest.csv, abtest.svg, abtest.png")...)
		},
	}.register()
}

// plan makes the plan from the flags, each already validated by its own
// Set, and refuses what involves several flags or the outside world: one
// line naming the flag and the fix, nothing touched. The URL the variants
// share is --db (target).
func (f *abtestFlags) plan() (experiment.ABTestPlan, error) {
	var p experiment.ABTestPlan
	var err error
	if p.A, err = abVariant("a", f.a, f.aSession, f.db); err != nil {
		return p, err
	}
	if p.B, err = abVariant("b", f.b, f.bSession, f.db); err != nil {
		return p, err
	}
	switch {
	case len(f.a)+len(f.aSession)+len(f.b)+len(f.bSession) == 0:
		return p, usagef("give the two variants: --a URL --b URL, or --db URL --a-session SQL --b-session SQL")
	case f.db == "" && (p.A.URL == "") != (p.B.URL == ""):
		return p, usagef("only one variant has a URL: give --b URL too, or --db URL for the variant without one")
	case firstNonEmpty(p.A.URL, f.db) == firstNonEmpty(p.B.URL, f.db) && slices.Equal(p.A.Session, p.B.Session):
		return p, usagef("A and B are the same variant (same URL, same session statements): give them different URLs or settings")
	}
	if err := f.workload(&p); err != nil {
		return p, err
	}
	p.Reps, p.Warmup, p.Dest, p.Level, p.Seed = f.reps.V, f.warmup.V, f.dest.V, f.level.V, f.seed.V
	if err := pairLoad(p.Reps).fits(sysinfo.ReadCapacity()); err != nil {
		return p, err
	}
	p.Caches = []string{f.cache.V}
	if f.cache.V == "both" {
		p.Caches = []string{"warm", "cold"}
	}
	if f.server != "" {
		if p.A.URL != "" || p.B.URL != "" {
			return p, usagef("--server restarts the one server --db names; with --a URL --b URL the variants are two servers")
		}
		if p.Restart, err = serverRestart(f.server, f.db); err != nil {
			return p, err
		}
	}
	p.Drop, p.NoEngineTime = f.drop, !f.engineTime
	return p, nil
}

// workload reads --wisconsin/--size or --sql.
func (f *abtestFlags) workload(p *experiment.ABTestPlan) error {
	if f.sqlFile != "" {
		if f.wisconsin.IsSet() || f.size.IsSet() {
			return usagef("--sql and --wisconsin/--size: give one workload")
		}
		b, err := os.ReadFile(f.sqlFile)
		if err != nil {
			return usagef("--sql: %v", err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimRight(strings.TrimSpace(line), ";")
			if line != "" && !strings.HasPrefix(line, "--") {
				p.SQL = append(p.SQL, line)
			}
		}
		if len(p.SQL) == 0 {
			return usagef("--sql %s: no query in the file (one query per line)", f.sqlFile)
		}
		return nil
	}
	p.Wisconsin, p.Size = f.wisconsin.V, f.size.V
	if !f.wisconsin.IsSet() {
		p.Wisconsin, _ = w.ParseQueries("9-17")
	}
	if !f.size.IsSet() {
		p.Size = 10000
	}
	return nil
}

// abVariant sorts a variant's --a/--b values into its URL and session
// statements. Without --db every value must be an engine URL (a typo in a
// URL must not turn into a statement); with --db a value that is not one
// is a session statement.
func abVariant(flag string, vals, session []string, db string) (experiment.ABVariantPlan, error) {
	v := experiment.ABVariantPlan{}
	for _, s := range vals {
		s = strings.TrimSpace(s)
		switch {
		case s == "":
			return v, usagef("--%s: empty value", flag)
		case isEngineURL(s):
			if v.URL != "" {
				return v, usagef("--%s: two URLs (%s and %s) for one variant", flag, redactURL(v.URL), redactURL(s))
			}
			v.URL = s
		case db == "":
			return v, usagef("--%s %q is not an engine URL (known: %s); to compare session settings give --db URL and --%s-session SQL", flag, dbms.RedactPasswords(s), strings.Join(dbms.Schemes(), ", "), flag)
		default:
			v.Session = append(v.Session, s)
		}
	}
	for _, s := range session {
		if s = strings.TrimSpace(s); s == "" {
			return v, usagef("--%s-session: empty statement", flag)
		}
		v.Session = append(v.Session, s)
	}
	return v, nil
}

// isEngineURL: a registered scheme and no blank (a statement such as
// SET search_path = 'a:b' also has a colon).
func isEngineURL(s string) bool {
	if strings.ContainsAny(s, " \t\n") {
		return false
	}
	u, err := dbms.ParseURL(s)
	return err == nil && slices.Contains(dbms.Schemes(), u.Scheme)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func (f *abtestFlags) target() (db, out string) { return f.db, f.out }
