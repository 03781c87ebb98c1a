package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

type sizeSweepFlags struct {
	db, sizes, access, retrieve, basis, seed, out string
	reps, warmup                                  int
	keep                                          bool
}

func init() { registerCommand("sizesweep", newSizeSweep) }

func newSizeSweep(stdout, stderr io.Writer) *cobra.Command {
	var f sizeSweepFlags
	cmd := &cobra.Command{
		Use:   "sizesweep [--db URL] [--sizes LIST] [--access LIST] [--reps N]",
		Short: "Time simple retrieves against relation size under no index, a clustered and a non-clustered index",
		Long: `Retrieval time against relation size (seed 004 IDM Test 2, seed 003 §5.1;
specs/experiments.md §2). For every size a Wisconsin relation is generated
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
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			plan, err := f.plan()
			if err != nil {
				return err
			}
			setup, err := runSetup(cmd, "sizesweep", f.out, f.db)
			if err != nil {
				return err
			}
			out := setup.Dir
			pr := progress.New(stderr)
			res, err := experiment.RunSizeSweep(cmd.Context(), setup, plan, pr)
			if res != nil {
				stdout.Write(report.SizeSweepText(res))
				fmt.Fprintf(stdout, "run directory: %s (results.json, sizesweep.txt, sizesweep.csv, sizesweep.svg, sizesweep.png)\n", out)
				finishRun(stdout, stderr, out, "", false)
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.db, "db", "", "engine URL (default: SQLite in the run directory)")
	fl.StringVar(&f.sizes, "sizes", "100,1000,5000,10000,25000,50000,100000,150000", "relation sizes in tuples (seed 004's eight by default)")
	fl.StringVar(&f.access, "access", "none,clustered,nonclustered", "access methods: none, clustered, nonclustered")
	fl.StringVar(&f.retrieve, "retrieve", experiment.RetrieveSingle, "single (one tuple by equality, seed 004) or 1pct (a 1% range, seed 003)")
	fl.StringVar(&f.basis, "basis", "mean", "time the analysis and diagram use: mean (the seed's average) or median (robust to a disturbed repetition)")
	fl.IntVar(&f.reps, "reps", 5, "timed retrieves per size and access method")
	fl.IntVar(&f.warmup, "warmup", 1, "untimed retrieves per size and access method before the timed ones")
	fl.StringVar(&f.seed, "seed", "1", "seed of the retrieves' constants")
	fl.BoolVar(&f.keep, "keep", false, "keep the relations in the database (default: each size's are dropped once measured)")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-sizesweep)")
	addConfigFlag(cmd)
	return cmd
}

// sweepAccessOrder is the order methods are built, timed and reported in.
var sweepAccessOrder = []string{results.AccessNone, results.AccessClustered, results.AccessNonClustered}

// plan validates the flags: every refusal is one line naming the flag and
// the fix, and nothing is touched.
func (f *sizeSweepFlags) plan() (experiment.SizeSweepPlan, error) {
	var p experiment.SizeSweepPlan
	sizes, err := parseSizes("sizes", f.sizes)
	if err != nil {
		return p, err
	}
	strs := make([]string, len(sizes))
	for i, n := range sizes {
		strs[i] = strconv.FormatInt(n, 10)
		// The relation is cut from the generated size rounded up to 100.
		if err := w.CheckSize((n + 99) / 100 * 100); err != nil {
			return p, usagef("--sizes: %v", err)
		}
	}
	if d := duplicate(strs); d != "" {
		return p, usagef("--sizes: %s is given twice", d)
	}
	slices.Sort(sizes)
	p.Sizes = sizes
	acc, err := parseChoices("access", f.access, sweepAccessOrder)
	if err != nil {
		return p, err
	}
	if d := duplicate(acc); d != "" {
		return p, usagef("--access: %s is given twice", d)
	}
	for _, a := range sweepAccessOrder {
		if slices.Contains(acc, a) {
			p.Access = append(p.Access, a)
		}
	}
	switch f.retrieve {
	case experiment.RetrieveSingle, experiment.RetrievePercent:
		p.Retrieve = f.retrieve
	default:
		return p, usagef("--retrieve %q: give single or 1pct", f.retrieve)
	}
	if p.Retrieve == experiment.RetrievePercent && sizes[0] < 100 {
		return p, usagef("--sizes: %d has no 1%% range; with --retrieve 1pct give sizes of at least 100", sizes[0])
	}
	switch f.basis {
	case "mean", "median":
		p.Basis = f.basis
	default:
		return p, usagef("--basis %q: give mean or median", f.basis)
	}
	if f.reps < 1 {
		return p, usagef("--reps %d: give at least 1 (default 5)", f.reps)
	}
	if f.warmup < 0 {
		return p, usagef("--warmup %d: must not be negative", f.warmup)
	}
	p.Reps, p.Warmup, p.Keep = f.reps, f.warmup, f.keep
	if p.Seed, err = parseSeed(f.seed); err != nil {
		return p, err
	}
	return p, nil
}
