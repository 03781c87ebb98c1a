package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/timing"
)

// qacFlags are qac's flags, typed: Set has validated each.
type qacFlags struct {
	db, sqlFile, table, key, server, out string
	cards                                *flagtype.List[int64]
	cache                                *flagtype.Value[string]
	cpus                                 *flagtype.Value[[]int]
	seed                                 *flagtype.Value[uint64]
	wisconsin, qes, maxRestarts          *flagtype.Value[int]
	drop                                 bool
}

// newQACFlags are the defaults.
func newQACFlags() *qacFlags {
	return &qacFlags{
		wisconsin:   flagtype.Int(0).Check(flagtype.AtLeast(0, "")),
		cards:       flagtype.Counts("").Sorted(flagtype.Ascending).WithExample("200000,400000,600000,800000,1000000"),
		qes:         flagtype.Int(10).Check(flagtype.AtLeast(6, "(the protocol drops a Q@C left with fewer than 6 executions)")),
		cache:       flagtype.Choice("warm", "warm", "cold"),
		maxRestarts: flagtype.Int(3).Check(flagtype.AtLeast(0, "")),
		cpus: flagtype.Func("", timing.ParseCPUList).WithExample("1").Check(func(cpus []int) error {
			for _, c := range cpus {
				if c >= timing.OnlineCPUs() {
					return fmt.Errorf("this machine has CPUs 0-%d", timing.OnlineCPUs()-1)
				}
			}
			return nil
		}),
		seed: flagtype.Seed("1"),
	}
}

func (f *qacFlags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.db, "db", "", "engine URL (default: SQLite in the run directory)")
	fl.StringVar(&f.sqlFile, "sql", "", "file with one query; {table} stands for the variable table")
	fl.Var(f.wisconsin, "wisconsin", "a Wisconsin selection query, 1-8, on TENKTUP1")
	fl.StringVar(&f.table, "table", "", "with --sql: your table at (at least) the largest cardinality")
	fl.StringVar(&f.key, "key", "", "with --sql: an integer column of --table numbered 0..N-1; cardinality C keeps key < C")
	fl.Var(f.cards, "cardinalities", "cardinalities of the variable table (e.g. 200000,400000,600000,800000,1000000)")
	fl.Var(f.qes, "qe", "query executions per Q@C (the protocol keeps a Q@C only with at least 6 left)")
	fl.Var(f.cache, "cache", "warm, or cold: drop the OS page cache and empty the engine's before every execution")
	fl.StringVar(&f.server, "server", "", "directory of a private instance from 'dbgauge server start': restarted to empty its cache with --cache cold, and to switch delay accounting on")
	fl.Var(f.maxRestarts, "max-restarts", "how often a Q@C is restarted because its plan changed before the change is accepted (and reported)")
	fl.Var(f.cpus, "cpus", "pin dbgauge and the engine's processes to these CPUs (e.g. 1 or 0-1): the paper ran on one core; a local server only")
	fl.Var(f.seed, "seed", "seed of the data and of the query constants")
	fl.BoolVar(&f.drop, "drop", false, "drop the variable tables at the end")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-qac)")
}

func init() {
	experimentCmd[experiment.QACPlan, *results.QACResults]{
		name:  "qac",
		use:   "qac --db URL (--sql FILE | --wisconsin Q) --cardinalities LIST",
		short: "Time one query at several cardinalities with the Tucson Timing Protocol",
		long: `Query at cardinality (seed 002, docs/ttp.md): the variable table is built
once at the largest cardinality and cut down with CREATE TABLE AS for each
smaller one; every Q@C runs --qe query executions in the protocol's order
(plan check, cold cache, snapshots of every process and of the machine,
the execution, snapshots again, the exits of processes that ended). The
protocol's sanity checks drop executions and Q@Cs by stated rules, and the
computed time (the query process's own CPU and I/O time, from the kernel's
accounting) is reported beside the measured wall-clock time, with bootstrap
intervals. protocol.txt in the run directory is the reporting paragraph.

--wisconsin Q takes a Wisconsin selection (queries 1-8) on a TENKTUP1 of the
largest cardinality. --sql FILE takes a query whose text names the variable
table as {table}; --table names your table and --key an integer column
numbered 0..N-1 (the cut keeps the rows with key < C).`,
		flags: func() experimentFlags[experiment.QACPlan] { return newQACFlags() },
		run:   experiment.RunQAC,
		summary: func(r *results.QACResults, dir string) []byte {
			return append(report.QACText(r), runDirLine(dir, "results.json, qac.txt, qac.csv, protocol.txt, qac.svg, qac.png")...)
		},
	}.register()
}

// plan makes the plan from the flags, each already validated by its own
// Set, and refuses what involves several flags or the outside world: one
// line naming the flag and the fix, nothing touched.
func (f *qacFlags) plan() (experiment.QACPlan, error) {
	var p experiment.QACPlan
	switch wq := f.wisconsin.V; {
	case f.sqlFile == "" && wq == 0:
		return p, usagef("give the query: --wisconsin Q (1-8) or --sql FILE")
	case f.sqlFile != "" && wq != 0:
		return p, usagef("--sql and --wisconsin: give one of them")
	case wq > 8:
		return p, usagef("--wisconsin %d: qac times the selections 1-8 (use --sql for others)", wq)
	}
	if f.sqlFile != "" {
		b, err := os.ReadFile(f.sqlFile)
		if err != nil {
			return p, usagef("--sql: %v", err)
		}
		p.SQL = strings.TrimRight(strings.TrimSpace(string(b)), ";")
		if !strings.Contains(p.SQL, "{table}") {
			return p, usagef("--sql %s: the query must name the variable table as {table}", f.sqlFile)
		}
		if f.table == "" || f.key == "" {
			return p, usagef("--sql needs --table (your table) and --key (its integer column numbered 0..N-1)")
		}
		p.Table, p.Key = f.table, f.key
	} else if f.table != "" || f.key != "" {
		return p, usagef("--table and --key go with --sql; --wisconsin builds its own TENKTUP1")
	}
	p.Wisconsin = f.wisconsin.V
	if !f.cards.IsSet() {
		return p, usagef("--cardinalities is required (e.g. --cardinalities 200000,400000,600000,800000,1000000)")
	}
	if p.Wisconsin != 0 && f.cards.Values[0] < 1000 {
		return p, usagef("--cardinalities: %d is below 1000, the smallest Wisconsin relation", f.cards.Values[0])
	}
	p.Cardinalities = f.cards.Values
	p.QEs, p.Cold, p.MaxRestarts, p.Seed, p.CPUs, p.Drop = f.qes.V, f.cache.V == "cold", f.maxRestarts.V, f.seed.V, f.cpus.V, f.drop
	if f.server != "" {
		var err error
		if p.Restart, err = serverRestart(f.server, f.db); err != nil {
			return p, err
		}
	}
	return p, nil
}

func (f *qacFlags) target() (db, out string) { return f.db, f.out }
