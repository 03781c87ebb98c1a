package cli

import (
	"encoding/json"
	"io"
	"os"
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// multiuserFlags are multiuser's flags, typed: Set has validated each.
type multiuserFlags struct {
	db, out             string
	users               *flagtype.List[int64]
	tuples              *flagtype.Value[int64]
	seed                *flagtype.Value[uint64]
	reps, retrieves     *flagtype.Value[int]
	rows                *flagtype.Value[int64]
	processes, subtract bool
	retry               bool
	backoff             backoffFlags
	spread              *spreadFlag
}

// newMultiuserFlags are the defaults.
func newMultiuserFlags() *multiuserFlags {
	return &multiuserFlags{
		users:     flagtype.WholeNumbers("0,1,2,4,8,14,16,18,24").Sorted(flagtype.Ascending).WithExample("0,1,2,4,8"),
		tuples:    flagtype.Count("150000", "relation size").Check(w.CheckSize),
		reps:      flagtype.Int(5).Check(flagtype.AtLeast(1, "")),
		retrieves: flagtype.Int(10).Check(flagtype.AtLeast(1, "")),
		rows:      flagtype.Int64(1).Check(flagtype.AtLeast[int64](1, "")),
		seed:      flagtype.Seed("1"),
		backoff:   newBackoffFlags("--retry"),
		spread:    newSpreadFlag(),
	}
}

func (f *multiuserFlags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.db, "db", "", "engine URL (default: SQLite in the run directory)")
	fl.Var(f.users, "users", "user counts; 0 measures the harness alone, 1 is needed for thruput")
	fl.Var(f.tuples, "tuples", "tuples of the relation (the IDM test's 150000; a multiple of 100)")
	fl.Var(f.reps, "reps", "repetitions of every user count (the IDM data have five to ten)")
	fl.Var(f.retrieves, "retrieves", "retrieves in every user's script")
	fl.Var(f.rows, "rows", "rows per retrieve: 1 is an exact match (attr = k), more a range (attr BETWEEN k AND k+rows-1)")
	fl.BoolVar(&f.processes, "processes", false, "run every user as its own operating-system process (goroutines otherwise)")
	fl.BoolVar(&f.subtract, "subtract-overhead", false, "subtract the zero-user time (the harness's overhead) from every time; needs 0 in --users")
	fl.Var(f.seed, "seed", "seed of the users' query constants")
	fl.BoolVar(&f.retry, "retry", false, "measure again a repetition cut short by a lost or refused connection or a server shutting down, starting or full (goroutine users), after a backoff")
	f.backoff.bind(fl)
	f.spread.bind(fl)
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-multiuser)")
}

func init() {
	experimentCmd[experiment.MultiuserPlan, *results.MultiuserResults]{
		name:  "multiuser",
		use:   "multiuser --db URL [--users 0,1,2,4,8,14,16,18,24]",
		short: "Multi-user throughput: n users started at once, time until the last ends (IDM Performance Test 1)",
		long: `Multi-user throughput (seed 004, IDM Performance Test 1; docs/experiments.md
section 1). A Wisconsin relation (TENKTUP1 of --tuples) gets a clustered
index on unique2 and a non-clustered index on unique1. Every user has its
own script of --retrieves retrieves, each a simple restriction on one
attribute (two thirds on unique1, one third on unique2, constants from a
generator seeded per user); every result's cardinality is checked. A master
opens one connection per user, starts all users at once and measures the
wall time until the last finishes. Zero users measures the master alone:
it is reported, and subtracted with --subtract-overhead.

Each user count runs --reps times (a repetition goes through all counts).
The table gives per user count the median time with its range and a
bootstrap interval, per_user = time / users and thruput = users x T(1) /
T(users); the diagram draws thruput against users beside the ideal line.
Users are goroutines by default; --processes makes each its own process.
With --retry a measurement cut short by a server restarting or crashing is
measured again after a capped exponential backoff (--backoff-cap, --give-up)
and listed in results.json, never as a result.`,
		flags: func() experimentFlags[experiment.MultiuserPlan] { return newMultiuserFlags() },
		run:   experiment.RunMultiuser,
		summary: func(r *results.MultiuserResults, dir string) []byte {
			return append(report.MultiuserText(r), runDirLine(dir, "results.json, multiuser.txt, multiuser.csv, multiuser.svg, multiuser.png")...)
		},
		subcommands: func(stdout, _ io.Writer) []*cobra.Command { return []*cobra.Command{newMultiuserUser(stdout)} },
		after: func(_ *results.MultiuserResults, err error) error {
			return openFilesLimit(err, "--users")
		},
	}.register()
}

// plan makes the plan from the flags, each already validated by its own
// Set, and refuses what involves several flags or the outside world: one
// line naming the flag and the fix, nothing touched.
func (f *multiuserFlags) plan() (experiment.MultiuserPlan, error) {
	var p experiment.MultiuserPlan
	for _, u := range f.users.Values {
		p.Users = append(p.Users, int(u))
	}
	if slices.Max(p.Users) > 0 && !slices.Contains(p.Users, 1) {
		return p, usagef("--users %s: include 1 (thruput is relative to the time of one user)", f.users)
	}
	p.Tuples = f.tuples.V
	if f.rows.V > p.Tuples {
		return p, usagef("--rows %d: between 1 and --tuples (%d)", f.rows.V, p.Tuples)
	}
	p.Reps, p.Retrieves, p.RowsPerRetrieve = f.reps.V, f.retrieves.V, f.rows.V
	if f.subtract && !slices.Contains(p.Users, 0) {
		return p, usagef("--subtract-overhead needs the zero-user run: include 0 in --users")
	}
	p.SubtractOverhead, p.Seed = f.subtract, f.seed.V
	var err error
	if p.BackoffCap, p.GiveUp, err = f.backoff.plan(f.retry); err != nil {
		return p, err
	}
	p.Retry = f.retry
	if p.Spread, err = f.spread.plan(f.db); err != nil {
		return p, err
	}
	if err := userLoad(f.users.String(), slices.Max(p.Users), p.Retrieves, f.processes).fits(sysinfo.ReadCapacity()); err != nil {
		return p, err
	}
	if f.processes {
		exe, err := os.Executable()
		if err != nil {
			return p, usagef("--processes: cannot find dbgauge's own executable to start the users: %v", err)
		}
		p.Processes, p.UserCommand = true, []string{exe, "multiuser", "user"}
	}
	return p, nil
}

// newMultiuserUser is the hidden "multiuser user" command: one user process
// of multiuser --processes. The master starts it with the engine URL in the
// environment and the release pipe as file descriptor 3.
func newMultiuserUser(stdout io.Writer) *cobra.Command {
	var table, script string
	cmd := &cobra.Command{
		Use:    "user --table T --script JSON",
		Short:  "one user process of multiuser --processes (started by dbgauge itself)",
		Hidden: true,
		Args:   noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var s []experiment.Retrieve
			if err := json.Unmarshal([]byte(script), &s); err != nil || table == "" {
				return usagef("multiuser user: started by dbgauge multiuser --processes, with --table and --script")
			}
			release := os.NewFile(3, "release")
			if release == nil {
				return usagef("multiuser user: no release pipe on file descriptor 3")
			}
			return experiment.MultiuserUser(cmd.Context(), table, s, release, stdout)
		},
	}
	cmd.Flags().StringVar(&table, "table", "", "the relation")
	cmd.Flags().StringVar(&script, "script", "", "the retrieves, as JSON")
	return cmd
}

func (f *multiuserFlags) target() (db, out string) { return f.db, f.out }
