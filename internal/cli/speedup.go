package cli

import (
	"fmt"
	"slices"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// speedupFlags are speedup's flags, typed: Set has validated each.
type speedupFlags struct {
	db, out           string
	parallelism       *flagtype.List[int64]
	sweep, pageSizes  *flagtype.List[int64]
	memory            *flagtype.Value[int64]
	size              *flagtype.Value[int64]
	dest              *flagtype.Value[string]
	seed              *flagtype.Value[uint64]
	ref, sweepP, reps *flagtype.Value[int]
	engineTime        bool
}

// newSpeedupFlags are the defaults.
func newSpeedupFlags() *speedupFlags {
	return &speedupFlags{
		parallelism: flagtype.Counts("").Sorted(flagtype.Ascending).WithExample("1,2,4").Check(func(v int64) error {
			if v > 256 {
				return fmt.Errorf("%d is more processes than dbgauge sets for one query (at most 256)", v)
			}
			return nil
		}),
		memory: flagtype.Bytes("256MiB"),
		ref:    flagtype.Int(0).Check(flagtype.AtLeast(0, "")),
		size: flagtype.Count("100000", "Wisconsin base size").Check(func(n int64) error {
			if n < 1000 {
				return fmt.Errorf("give one Wisconsin base size of at least 1000")
			}
			return nil
		}),
		reps: flagtype.Int(5).Check(flagtype.AtLeast(2, "(the spread of the repetitions, RSD, needs two)")),
		// Enough memory first, as seed 003 stepped down.
		sweep: flagtype.ByteSizes("").Sorted(flagtype.Descending).WithExample("64MiB,16MiB,4MiB,1MiB,256KiB,64KiB").Check(func(m int64) error {
			if m < 64<<10 {
				return fmt.Errorf("%d bytes is below 64 KiB, PostgreSQL's smallest work_mem (kB and MB are powers of 1000 here: write 64KiB)", m)
			}
			return nil
		}),
		sweepP: flagtype.Int(0).Check(flagtype.AtLeast(0, "")).Check(flagtype.AtMost(256, "")),
		pageSizes: flagtype.ByteSizes("").Sorted(flagtype.Ascending).WithExample("1KiB,4KiB,32KiB").Check(func(ps int64) error {
			if ps < 512 || ps > 65536 || ps&(ps-1) != 0 {
				return fmt.Errorf("%d bytes: a page size is a power of two from 512 bytes to 64 KiB (e.g. 4096 or 4KiB)", ps)
			}
			return nil
		}),
		dest: flagtype.Choice(results.DestRelation, results.DestRelation, results.DestCount),
		seed: flagtype.Seed("1"),
	}
}

func (f *speedupFlags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.db, "db", "", "engine URL (default: SQLite in the run directory)")
	fl.Var(f.parallelism, "parallelism", "degrees of parallelism p, processes per query with the leader (e.g. 1,2,4)")
	fl.Var(f.memory, "memory", "total memory held constant across p (PostgreSQL work_mem = TOTAL/p, DuckDB memory_limit)")
	fl.Var(f.ref, "ref", "reference p of the speedups (default the smallest p; seed 003 used 2 for its joins)")
	fl.Var(f.size, "size", "Wisconsin base size N (TENKTUP1 and TENKTUP2 have N tuples)")
	fl.Var(f.reps, "reps", "timed repetitions per point (after one untimed warm-up)")
	fl.Var(f.sweep, "memory-sweep", "total join memories, largest first (e.g. 64MiB,16MiB,4MiB,1MiB,256KiB,64KiB)")
	fl.Var(f.sweepP, "sweep-p", "the fixed p of --memory-sweep (default --ref, or 1 without --parallelism)")
	fl.Var(f.pageSizes, "page-sizes", "page sizes in bytes or KiB (e.g. 1KiB,2KiB,4KiB,8KiB,16KiB,32KiB): SQLite and Firebird")
	fl.Var(f.dest, "dest", "where each result goes: relation (stored with CREATE TABLE AS) or count (COUNT(*) inside the engine)")
	bindEngineTime(fl, &f.engineTime, "speedup.csv's engine_median_ms and results.json's engine_ms per point")
	fl.Var(f.seed, "seed", "seed of the data and of the query constants")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-speedup)")
}

func init() {
	experimentCmd[experiment.SpeedupPlan, *results.SpeedupResults]{
		name:  "speedup",
		use:   "speedup --db URL --parallelism LIST [--memory TOTAL] [--ref P] [--memory-sweep LIST] [--page-sizes LIST]",
		short: "Speedup of the Wisconsin selections and joins against parallelism, join memory and page size",
		long: `Seed 003 sections 5.2 and 6.2 (docs/experiments.md §4): the 0%, 1% and
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
		flags: func() experimentFlags[experiment.SpeedupPlan] { return newSpeedupFlags() },
		run:   experiment.RunSpeedup,
		summary: func(r *results.SpeedupResults, dir string) []byte {
			return append(report.SpeedupText(r), runDirLine(dir, "results.json, speedup.txt, speedup.csv and the diagrams")...)
		},
	}.register()
}

// plan makes the plan from the flags, each already validated by its own
// Set, and refuses what involves several flags or the outside world: one
// line naming the flag and the fix, nothing touched.
func (f *speedupFlags) plan() (experiment.SpeedupPlan, error) {
	p := experiment.SpeedupPlan{Dest: f.dest.V, NoEngineTime: !f.engineTime, Memory: f.memory.V, MemorySweep: f.sweep.Values, PageSizes: f.pageSizes.Values,
		Size: f.size.V, Reps: f.reps.V, Seed: f.seed.V}
	if !f.parallelism.IsSet() && !f.sweep.IsSet() && !f.pageSizes.IsSet() {
		return p, usagef("give what to vary: --parallelism LIST (e.g. 1,2,4), --memory-sweep LIST or --page-sizes LIST")
	}
	ref, sweepP := f.ref.V, f.sweepP.V
	if f.parallelism.IsSet() {
		for _, v := range f.parallelism.Values {
			p.Parallelism = append(p.Parallelism, int(v))
		}
		p.Ref = p.Parallelism[0]
		if ref != 0 {
			if !slices.Contains(p.Parallelism, ref) {
				return p, usagef("--ref %d: the reference must be one of --parallelism %s", ref, f.parallelism)
			}
			p.Ref = ref
		}
	} else if ref != 0 {
		return p, usagef("--ref goes with --parallelism: it is the reference p of the speedups")
	}
	if f.sweep.IsSet() {
		p.SweepP = max(p.Ref, 1)
		if sweepP != 0 {
			p.SweepP = sweepP
		}
	} else if sweepP != 0 {
		return p, usagef("--sweep-p goes with --memory-sweep")
	}
	return p, nil
}

func (f *speedupFlags) target() (db, out string) { return f.db, f.out }
