package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

func init() { registerCommand("quickstart", newQuickstart) }

func newQuickstart(stdout, stderr io.Writer) *cobra.Command {
	var out string
	sizes := flagtype.Counts("10000").Check(w.CheckSize)
	reps := flagtype.Int(5).Check(flagtype.AtLeast(1, "repetition"))
	cmd := &cobra.Command{
		Use:   "quickstart",
		Short: "Run the Wisconsin suite on embedded SQLite and DuckDB at a small size, side by side",
		Long: `Run the whole Wisconsin suite, every cardinality checked, on the two embedded
engines (no server needed), and print the tables side by side. The run
directory holds one sub-directory per engine plus the side-by-side tables
and report.html: both engines query by query, relative to the fastest, with
links to each engine's own report. The page needs no network.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			out, release, err := reserveOut(out, "quickstart")
			if err != nil {
				return err
			}
			defer release()
			abs, _ := filepath.Abs(out)
			all, _ := w.ParseQueries("1-32")
			plan := experiment.WisconsinPlan{Sizes: sizes.Values, Reps: reps.V, Orgs: w.Orgs, Dests: []string{results.DestRelation}, Queries: all, Seed: 1, Limit: 2 * time.Minute}
			var runs []*results.WisconsinResults
			for _, eng := range []string{"sqlite", "duckdb"} {
				dir := filepath.Join(abs, eng)
				db := fmt.Sprintf("%s:%s", eng, filepath.Join(dir, eng+".db"))
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return err
				}
				fmt.Fprintf(stderr, "== %s ==\n", eng)
				setup, release, err := runSetup(cmd, "wisconsin", filepath.Join(dir, "run"), db)
				if err != nil {
					return err
				}
				r, err := executeWisconsin(cmd.Context(), io.Discard, stderr, setup, filepath.Dir(abs), plan)
				release()
				if r != nil {
					runs = append(runs, r)
				}
				if err != nil {
					return fmt.Errorf("%s: %w", eng, err)
				}
			}
			side := report.SideBySideText(runs)
			if err := writePage(filepath.Join(abs, sideBySideFile), side); err != nil {
				return err
			}
			stdout.Write(side)
			for _, r := range runs {
				ok, bad := 0, 0
				for _, q := range r.Queries {
					if q.Status == results.StatusOK {
						ok++
					} else if q.Status != results.StatusNotApplicable {
						bad++
					}
				}
				fmt.Fprintf(stdout, "%s %s: %d query results with cardinality ok, %d failed\n", r.Engine, r.EngineVersion, ok, bad)
			}
			fmt.Fprintf(stdout, "run directory: %s ("+sideBySideFile+"; per engine: */run/tables.txt, results.json, report.html)\n", abs)
			page, err := writeQuickstartReport(abs, "")
			if err != nil {
				return fmt.Errorf("report.html: %w", err)
			}
			fmt.Fprintf(stdout, "report: %s (open it in a browser)\n", page)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "run directory (default runs/<UTC time>-quickstart)")
	cmd.Flags().Var(sizes, "size", "base relation size")
	cmd.Flags().Var(reps, "reps", "repetitions of each query")
	addRunFlags(cmd)
	return cmd
}

// sideBySideFile is the quickstart's engines side by side, in the seed's
// tables; `dbgauge report` rewrites it from the engines' results.
const sideBySideFile = "side_by_side.txt"
