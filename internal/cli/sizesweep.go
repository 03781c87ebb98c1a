package cli

import (
	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// sizeSweepFlags are sizesweep's flags, typed: Set has validated each.
type sizeSweepFlags struct {
	db, out          string
	sizes            *flagtype.List[int64]
	access           *flagtype.List[string]
	retrieve, basis  *flagtype.Value[string]
	reps, warmup     *flagtype.Value[int]
	seed             *flagtype.Value[uint64]
	keep, engineTime bool
}

// sweepAccessOrder is the order methods are built, timed and reported in.
var sweepAccessOrder = []string{results.AccessNone, results.AccessClustered, results.AccessNonClustered}

// newSizeSweepFlags are the defaults.
func newSizeSweepFlags() *sizeSweepFlags {
	return &sizeSweepFlags{
		// The relation is cut from the generated size rounded up to 100.
		sizes: flagtype.Counts("100,1000,5000,10000,25000,50000,100000,150000").
			Check(func(n int64) error { return w.CheckSize((n + 99) / 100 * 100) }).Sorted(flagtype.Ascending).WithExample("10000,100000"),
		access:   flagtype.Choices("none,clustered,nonclustered", sweepAccessOrder...).Sorted(flagtype.InAllowedOrder(sweepAccessOrder...)),
		retrieve: flagtype.Choice(experiment.RetrieveSingle, experiment.RetrieveSingle, experiment.RetrievePercent),
		basis:    flagtype.Choice("mean", "mean", "median"),
		reps:     flagtype.Int(5).Check(flagtype.AtLeast(1, "")),
		warmup:   flagtype.Int(1).Check(flagtype.AtLeast(0, "")),
		seed:     flagtype.Seed("1"),
	}
}

func (f *sizeSweepFlags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.db, "db", "", "engine URL (default: SQLite in the run directory)")
	fl.Var(f.sizes, "sizes", "relation sizes in tuples (seed 004's eight by default)")
	fl.Var(f.access, "access", "access methods: none, clustered, nonclustered")
	fl.Var(f.retrieve, "retrieve", "single (one tuple by equality, seed 004) or 1pct (a 1% range, seed 003)")
	fl.Var(f.basis, "basis", "time the analysis and diagram use: mean (the seed's average) or median (robust to a disturbed repetition)")
	fl.Var(f.reps, "reps", "timed retrieves per size and access method")
	fl.Var(f.warmup, "warmup", "untimed retrieves per size and access method before the timed ones")
	fl.Var(f.seed, "seed", "seed of the retrieves' constants")
	fl.BoolVar(&f.keep, "keep", false, "keep the relations in the database (default: each size's are dropped once measured)")
	bindEngineTime(fl, &f.engineTime, "sizesweep.txt's engine column and results.json's engine_ms per point")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-sizesweep)")
}

func init() {
	experimentCmd[experiment.SizeSweepPlan, *results.SizeSweepResults]{
		name:  "sizesweep",
		use:   "sizesweep [--db URL] [--sizes LIST] [--access LIST] [--reps N]",
		short: "Time simple retrieves against relation size under no index, a clustered and a non-clustered index",
		long: `Retrieval time against relation size (seed 004 IDM Test 2, seed 003 §5.1;
docs/experiments.md §2). For every size a Wisconsin relation is generated
(or cut from the next multiple of 100 with CREATE TABLE AS) once per access
method: none (a heap; the retrieve restricts unique2 and scans), clustered
(ordered on unique2 with its index) and nonclustered (a secondary index on
unique1). A single user runs --reps retrieves on each, the methods taking
turns, every result's cardinality checked; the mean and median time per size
and method are reported.

The analysis: a least-squares line of the scans' time against size (slope,
R²); for the indexes the slowest size's time over the fastest's; the
non-clustered/clustered ratio per size and on average (seed 004 Table 10);
and the scale-model check: a line fitted on all sizes but the largest
predicts the largest, and the error is reported per method. The analysis
uses the mean time per size (the seed's average) or, with --basis median,
the median.

--retrieve single (default) fetches one tuple by equality, as the IDM
test's indexed times, flat over a 1500-fold range, imply; --retrieve 1pct
fetches a 1% range, as seed 003's selections do.`,
		flags: func() experimentFlags[experiment.SizeSweepPlan] { return newSizeSweepFlags() },
		run:   experiment.RunSizeSweep,
		summary: func(r *results.SizeSweepResults, dir string) []byte {
			return append(report.SizeSweepText(r), runDirLine(dir, "results.json, sizesweep.txt, sizesweep.csv, sizesweep.svg, sizesweep.png")...)
		},
	}.register()
}

// plan makes the plan from the flags, each already validated by its own
// Set, and refuses what involves several flags or the outside world: one
// line naming the flag and the fix, nothing touched.
func (f *sizeSweepFlags) plan() (experiment.SizeSweepPlan, error) {
	p := experiment.SizeSweepPlan{Sizes: f.sizes.Values, Access: f.access.Values, Retrieve: f.retrieve.V, Basis: f.basis.V,
		Reps: f.reps.V, Warmup: f.warmup.V, Keep: f.keep, Seed: f.seed.V, NoEngineTime: !f.engineTime}
	if p.Retrieve == experiment.RetrievePercent && p.Sizes[0] < 100 {
		return p, usagef("--sizes: %d has no 1%% range; with --retrieve 1pct give sizes of at least 100", p.Sizes[0])
	}
	return p, nil
}

func (f *sizeSweepFlags) target() (db, out string) { return f.db, f.out }
