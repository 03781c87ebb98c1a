package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/workload"
)

func init() {
	registerCommand("populate", newPopulate)
	registerCommand("check", newCheck)
}

// workloadScaleFlags are populate's and check's: the database, the
// workload with its default options, and one scale.
type workloadScaleFlags struct {
	db, name string
	scale    *flagtype.Value[int]
}

func (f *workloadScaleFlags) bind(fs *pflag.FlagSet) {
	fs.StringVar(&f.db, "db", "", "engine URL (required)")
	fs.StringVar(&f.name, "workload", workload.Default(), "the workload: "+strings.Join(workload.Names(), ", "))
	f.scale = flagtype.Int(1).Check(flagtype.AtLeast(1, "scale"))
	fs.Var(f.scale, "scale", "the scale: "+scaleHelp())
}

// workload is the named workload with the options its flags have by
// default; refused with a line naming the flag when it needs more (a
// script workload's files: run it under dsbench) or the scale is beyond
// its bound.
func (f *workloadScaleFlags) workload() (workload.Workload, error) {
	if f.db == "" {
		return nil, usagef("--db is required: give the engine URL (dbgauge dsbench --help shows the forms)")
	}
	w, err := workload.New(f.name)
	if err != nil {
		return nil, usagef("--workload %s: %v", f.name, err)
	}
	var opts json.RawMessage
	if wf, ok := w.(workload.Flagger); ok {
		wf.Flags(pflag.NewFlagSet(f.name, pflag.ContinueOnError))
		if opts, err = wf.Options(); err != nil {
			return nil, usagef("--workload %s: %v: it runs under dbgauge dsbench, with its flags", f.name, err)
		}
	}
	if w, err = workload.NewConfigured(f.name, opts); err != nil {
		return nil, usagef("--workload %s: %v", f.name, err)
	}
	if err := w.Scale().Check(int64(f.scale.V)); err != nil {
		return nil, usagef("--scale %d: %v, the bound of the %s workload", f.scale.V, err, f.name)
	}
	return w, nil
}

// newPopulate is `dbgauge populate`: one scale of a workload's database,
// built as a sweep builds it, then checked.
func newPopulate(stdout, stderr io.Writer) *cobra.Command {
	f := &workloadScaleFlags{}
	cmd := &cobra.Command{
		Use:   "populate",
		Short: "Build a workload's database at one scale, as a sweep does, and check it",
		Long: `Build the database of a workload at one scale on the engine at --db, as
dbgauge dsbench builds each scale before its cycles: drop the workload's
tables, create them, load their rows through the engine's bulk path (in
parallel where the engine allows: by warehouse for orders), add the keys
and indexes, then run the workload's check of a freshly loaded database
(the twelve conditions for orders). It prints the times of each step and
the rows per second. A database built so can be measured by another tool
(go-tpc's run and check on an orders database) and checked again with
dbgauge check. Exit status 1 if the check finds a violation.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			w, err := f.workload()
			if err != nil {
				return err
			}
			pr := progress.New(stderr)
			p, bad, err := experiment.PopulateScale(cmd.Context(), f.db, w, int64(f.scale.V), pr)
			if err != nil {
				return err
			}
			total := p.Drop + p.Load + p.Keys + p.ForeignKeys
			fmt.Fprintf(stdout, "%s at scale %d: %d rows loaded in %.2f s (%.0f rows/s), keys and indexes %.2f s, in all %.2f s, %.1f MB\n",
				w.Meta().Name, f.scale.V, p.Rows, p.Load.Seconds(), float64(p.Rows)/max(p.Load.Seconds(), 1e-9), (p.Keys + p.ForeignKeys).Seconds(), total.Seconds(), float64(p.SizeBytes)/1e6)
			if len(p.KeyedTables) > 0 {
				fmt.Fprintf(stdout, "note: the primary keys of %s were made with the tables (the engine stores a table in its primary key): their cost is in the load's time\n", strings.Join(p.KeyedTables, ", "))
			}
			for _, n := range p.Notes {
				fmt.Fprintf(stdout, "note: %s\n", n)
			}
			return reportChecked(stdout, "after the load", bad)
		}}
	f.bind(cmd.Flags())
	return cmd
}

// newCheck is `dbgauge check`: a workload's checks of a database outside
// a run.
func newCheck(stdout, stderr io.Writer) *cobra.Command {
	f := &workloadScaleFlags{}
	var afterLoad bool
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Check a workload's database at one scale for the conditions that must hold",
		Long: `Check the database of a workload at one scale on the engine at --db for the
conditions that hold whatever ran on it: for orders every consistency
condition of TPC-C's clause 3.3.2 but 11, each named with where it fails
(with --after-load all twelve, as right after a load). The database may
have been loaded and run by dbgauge or by another tool that uses the same
tables (go-tpc's tpcc prepare and run). Exit status 1 if a condition does
not hold.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			w, err := f.workload()
			if err != nil {
				return err
			}
			bad, err := experiment.CheckScale(cmd.Context(), f.db, w, int64(f.scale.V), afterLoad)
			if err != nil {
				return err
			}
			return reportChecked(stdout, "", bad)
		}}
	f.bind(cmd.Flags())
	cmd.Flags().BoolVar(&afterLoad, "after-load", false, "check the conditions of a database just loaded (orders: condition 11 too)")
	return cmd
}

// reportChecked prints a check's violations, or that there is none; a
// violation is the command's failure (exit status 1).
func reportChecked(out io.Writer, when string, bad []string) error {
	if when != "" {
		when = " " + when
	}
	if len(bad) == 0 {
		fmt.Fprintf(out, "consistent%s: every condition holds\n", when)
		return nil
	}
	for _, b := range bad {
		fmt.Fprintf(out, "violated%s: %s\n", when, b)
	}
	return fmt.Errorf("%d condition(s) violated", len(bad))
}
