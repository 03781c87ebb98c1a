package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/timing"
)

type qacFlags struct {
	db, sqlFile, table, key, cards, cache, server, seed, out, cpus string
	wisconsin, qes, maxRestarts                                    int
	drop                                                           bool
}

func init() { registerCommand("qac", newQAC) }

func newQAC(stdout, stderr io.Writer) *cobra.Command {
	var f qacFlags
	cmd := &cobra.Command{
		Use:   "qac --db URL (--sql FILE | --wisconsin Q) --cardinalities LIST",
		Short: "Time one query at several cardinalities with the Tucson Timing Protocol",
		Long: `Query at cardinality (seed 002, specs/ttp.md): the variable table is built
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
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			plan, err := f.plan()
			if err != nil {
				return err
			}
			setup, err := runSetup(cmd, "qac", f.out, f.db)
			if err != nil {
				return err
			}
			out := setup.Dir
			pr := progress.New(stderr)
			res, err := experiment.RunQAC(cmd.Context(), setup, plan, pr)
			if res != nil {
				stdout.Write(report.QACText(res))
				fmt.Fprintf(stdout, "run directory: %s (results.json, qac.txt, qac.csv, protocol.txt, qac.svg, qac.png)\n", out)
				finishRun(stdout, stderr, out, "", false)
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.db, "db", "", "engine URL (default: SQLite in the run directory)")
	fl.StringVar(&f.sqlFile, "sql", "", "file with one query; {table} stands for the variable table")
	fl.IntVar(&f.wisconsin, "wisconsin", 0, "a Wisconsin selection query, 1-8, on TENKTUP1")
	fl.StringVar(&f.table, "table", "", "with --sql: your table at (at least) the largest cardinality")
	fl.StringVar(&f.key, "key", "", "with --sql: an integer column of --table numbered 0..N-1; cardinality C keeps key < C")
	fl.StringVar(&f.cards, "cardinalities", "", "cardinalities of the variable table (e.g. 200000,400000,600000,800000,1000000)")
	fl.IntVar(&f.qes, "qe", 10, "query executions per Q@C (the protocol keeps a Q@C only with at least 6 left)")
	fl.StringVar(&f.cache, "cache", "warm", "warm, or cold: drop the OS page cache and empty the engine's before every execution")
	fl.StringVar(&f.server, "server", "", "directory of a private instance from 'dbgauge server start': restarted to empty its cache with --cache cold, and to switch delay accounting on")
	fl.IntVar(&f.maxRestarts, "max-restarts", 3, "how often a Q@C is restarted because its plan changed before the change is accepted (and reported)")
	fl.StringVar(&f.cpus, "cpus", "", "pin dbgauge and the engine's processes to these CPUs (e.g. 1 or 0-1): the paper ran on one core; a local server only")
	fl.StringVar(&f.seed, "seed", "1", "seed of the data and of the query constants")
	fl.BoolVar(&f.drop, "drop", false, "drop the variable tables at the end")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-qac)")
	addConfigFlag(cmd)
	return cmd
}

func (f *qacFlags) plan() (experiment.QACPlan, error) {
	var p experiment.QACPlan
	switch {
	case f.sqlFile == "" && f.wisconsin == 0:
		return p, usagef("give the query: --wisconsin Q (1-8) or --sql FILE")
	case f.sqlFile != "" && f.wisconsin != 0:
		return p, usagef("--sql and --wisconsin: give one of them")
	case f.wisconsin != 0 && (f.wisconsin < 1 || f.wisconsin > 8):
		return p, usagef("--wisconsin %d: qac times the selections 1-8 (use --sql for others)", f.wisconsin)
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
	p.Wisconsin = f.wisconsin
	if f.cards == "" {
		return p, usagef("--cardinalities is required (e.g. --cardinalities 200000,400000,600000,800000,1000000)")
	}
	cards, err := parseSizes("cardinalities", f.cards)
	if err != nil {
		return p, err
	}
	strs := make([]string, len(cards))
	for i, c := range cards {
		strs[i] = strconv.FormatInt(c, 10)
		if p.Wisconsin != 0 && c < 1000 {
			return p, usagef("--cardinalities: %d is below 1000, the smallest Wisconsin relation", c)
		}
	}
	if d := duplicate(strs); d != "" {
		return p, usagef("--cardinalities: %s is given twice", d)
	}
	slices.Sort(cards)
	p.Cardinalities = cards
	if f.qes < 6 {
		return p, usagef("--qe %d: the protocol drops a Q@C left with fewer than 6 executions; give at least 6 (default 10)", f.qes)
	}
	p.QEs = f.qes
	switch f.cache {
	case "warm", "cold":
		p.Cold = f.cache == "cold"
	default:
		return p, usagef("--cache %q: give warm or cold", f.cache)
	}
	if f.maxRestarts < 0 {
		return p, usagef("--max-restarts %d: must not be negative", f.maxRestarts)
	}
	p.MaxRestarts = f.maxRestarts
	if p.Seed, err = parseSeed(f.seed); err != nil {
		return p, err
	}
	if f.server != "" {
		if p.Restart, err = serverRestart(f.server, f.db); err != nil {
			return p, err
		}
	}
	if f.cpus != "" {
		if p.CPUs, err = timing.ParseCPUList(f.cpus); err != nil {
			return p, usagef("--cpus: %v", err)
		}
		for _, c := range p.CPUs {
			if c >= timing.OnlineCPUs() {
				return p, usagef("--cpus %s: this machine has CPUs 0-%d", f.cpus, timing.OnlineCPUs()-1)
			}
		}
	}
	p.Drop = f.drop
	return p, nil
}
