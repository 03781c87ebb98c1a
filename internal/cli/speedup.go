package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

type speedupFlags struct {
	db, parallelism, memory, size, sweep, pageSizes, seed, dest, out string
	ref, sweepP, reps                                                int
}

func init() { registerCommand("speedup", newSpeedup) }

func newSpeedup(stdout, stderr io.Writer) *cobra.Command {
	var f speedupFlags
	cmd := &cobra.Command{
		Use:   "speedup --db URL --parallelism LIST [--memory TOTAL] [--ref P] [--memory-sweep LIST] [--page-sizes LIST]",
		Short: "Speedup of the Wisconsin selections and joins against parallelism, join memory and page size",
		Long: `Seed 003 sections 5.2 and 6.2 (specs/experiments.md section 4): the 0%, 1% and
10% selections with no index, a clustered and a non-clustered index, and
joinABprime, joinAselB and joinCselAselB on the key (unique2) and a non-key
attribute (unique1), on Wisconsin relations of --size tuples. Each result is
stored into a fresh relation (CREATE TABLE AS, as the seeds did; --dest
count counts it inside the engine instead); every point runs once untimed
(a warm-up that also reads EXPLAIN ANALYZE where there is one) and --reps
times timed, and every result's cardinality is checked.

--parallelism p counts the processes (threads) working on one query, the
leader included: PostgreSQL runs p with max_parallel_workers_per_gather =
p-1 and work_mem = TOTAL/p (parallel plans made free to start so that the
planner uses the workers); DuckDB with threads = p and memory_limit = TOTAL.
Speedup(p) = T(p_ref)/T(p), p_ref = --ref (default the smallest p). Engines
without intra-query parallelism (MariaDB, SQLite, Firebird) are valid: the
run records "not applicable".

--memory-sweep lowers the total join memory at p = --sweep-p (default the
reference p) and reports the hash batches (PostgreSQL) or the temporary
files (DuckDB). --page-sizes creates a new database per page size (SQLite,
Firebird) beside --db and removes it afterwards.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			plan, err := f.plan()
			if err != nil {
				return err
			}
			setup, err := runSetup(cmd, "speedup", f.out, f.db)
			if err != nil {
				return err
			}
			out := setup.Dir
			pr := progress.New(stderr)
			res, err := experiment.RunSpeedup(cmd.Context(), setup, plan, pr)
			if res != nil {
				stdout.Write(report.SpeedupText(res))
				fmt.Fprintf(stdout, "run directory: %s (results.json, speedup.txt, speedup.csv and the diagrams)\n", out)
				finishRun(stdout, stderr, out, "", false)
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.db, "db", "", "engine URL (default: SQLite in the run directory)")
	fl.StringVar(&f.parallelism, "parallelism", "", "degrees of parallelism p, processes per query with the leader (e.g. 1,2,4)")
	fl.StringVar(&f.memory, "memory", "256MiB", "total memory held constant across p (PostgreSQL work_mem = TOTAL/p, DuckDB memory_limit)")
	fl.IntVar(&f.ref, "ref", 0, "reference p of the speedups (default the smallest p; seed 003 used 2 for its joins)")
	fl.StringVar(&f.size, "size", "100000", "Wisconsin base size N (TENKTUP1 and TENKTUP2 have N tuples)")
	fl.IntVar(&f.reps, "reps", 5, "timed repetitions per point (after one untimed warm-up)")
	fl.StringVar(&f.sweep, "memory-sweep", "", "total join memories, largest first (e.g. 64MiB,16MiB,4MiB,1MiB,256KiB,64KiB)")
	fl.IntVar(&f.sweepP, "sweep-p", 0, "the fixed p of --memory-sweep (default --ref, or 1 without --parallelism)")
	fl.StringVar(&f.pageSizes, "page-sizes", "", "page sizes in bytes or KiB (e.g. 1KiB,2KiB,4KiB,8KiB,16KiB,32KiB): SQLite and Firebird")
	fl.StringVar(&f.dest, "dest", results.DestRelation, "where each result goes: relation (stored with CREATE TABLE AS) or count (COUNT(*) inside the engine)")
	fl.StringVar(&f.seed, "seed", "1", "seed of the data and of the query constants")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-speedup)")
	addConfigFlag(cmd)
	return cmd
}

func (f *speedupFlags) plan() (experiment.SpeedupPlan, error) {
	var p experiment.SpeedupPlan
	switch f.dest {
	case results.DestRelation, results.DestCount:
		p.Dest = f.dest
	default:
		return p, usagef("--dest %q: give relation or count", f.dest)
	}
	if f.parallelism == "" && f.sweep == "" && f.pageSizes == "" {
		return p, usagef("give what to vary: --parallelism LIST (e.g. 1,2,4), --memory-sweep LIST or --page-sizes LIST")
	}
	if f.parallelism != "" {
		ps, err := parseSizes("parallelism", f.parallelism)
		if err != nil {
			return p, err
		}
		var strs []string
		for _, v := range ps {
			if v > 256 {
				return p, usagef("--parallelism %d: more processes than dbgauge sets for one query (at most 256)", v)
			}
			p.Parallelism = append(p.Parallelism, int(v))
			strs = append(strs, strconv.FormatInt(v, 10))
		}
		if d := duplicate(strs); d != "" {
			return p, usagef("--parallelism: %s is given twice", d)
		}
		slices.Sort(p.Parallelism)
		p.Ref = p.Parallelism[0]
		if f.ref != 0 {
			if !slices.Contains(p.Parallelism, f.ref) {
				return p, usagef("--ref %d: the reference must be one of --parallelism %s", f.ref, f.parallelism)
			}
			p.Ref = f.ref
		}
	} else if f.ref != 0 {
		return p, usagef("--ref goes with --parallelism: it is the reference p of the speedups")
	}
	var err error
	if p.Memory, err = parseBytes("memory", f.memory); err != nil {
		return p, err
	}
	if f.sweep != "" {
		var strs []string
		for _, part := range strings.Split(f.sweep, ",") {
			m, err := parseBytes("memory-sweep", part)
			if err != nil {
				return p, err
			}
			if m < 64<<10 {
				return p, usagef("--memory-sweep %s: %d bytes is below 64 KiB, PostgreSQL's smallest work_mem (kB and MB are powers of 1000 here: write 64KiB)", strings.TrimSpace(part), m)
			}
			p.MemorySweep = append(p.MemorySweep, m)
			strs = append(strs, strconv.FormatInt(m, 10))
		}
		if d := duplicate(strs); d != "" {
			return p, usagef("--memory-sweep: %s bytes are given twice", d)
		}
		slices.Sort(p.MemorySweep)
		slices.Reverse(p.MemorySweep) // enough memory first, as seed 003 stepped down
		p.SweepP = max(p.Ref, 1)
		if f.sweepP != 0 {
			if f.sweepP < 1 || f.sweepP > 256 {
				return p, usagef("--sweep-p %d: give 1 to 256", f.sweepP)
			}
			p.SweepP = f.sweepP
		}
	} else if f.sweepP != 0 {
		return p, usagef("--sweep-p goes with --memory-sweep")
	}
	if f.pageSizes != "" {
		var strs []string
		for _, part := range strings.Split(f.pageSizes, ",") {
			ps, err := parseBytes("page-sizes", part)
			if err != nil {
				return p, err
			}
			if ps < 512 || ps > 65536 || ps&(ps-1) != 0 {
				return p, usagef("--page-sizes %s: a page size is a power of two from 512 bytes to 64 KiB (e.g. 4096 or 4KiB)", strings.TrimSpace(part))
			}
			p.PageSizes = append(p.PageSizes, ps)
			strs = append(strs, strconv.FormatInt(ps, 10))
		}
		if d := duplicate(strs); d != "" {
			return p, usagef("--page-sizes: %s bytes are given twice", d)
		}
		slices.Sort(p.PageSizes)
	}
	sizes, err := parseSizes("size", f.size)
	if err != nil {
		return p, err
	}
	if len(sizes) != 1 || sizes[0] < 1000 {
		return p, usagef("--size %s: give one Wisconsin base size of at least 1000", f.size)
	}
	p.Size = sizes[0]
	if f.reps < 1 {
		return p, usagef("--reps %d: give at least 1", f.reps)
	}
	p.Reps = f.reps
	if p.Seed, err = parseSeed(f.seed); err != nil {
		return p, err
	}
	return p, nil
}
