package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/report/htmlreport"
)

func init() { registerCommand("compare", newCompare) }

// newCompare writes the comparison report of run directories: the first
// is the baseline, every other is compared with it.
func newCompare(stdout, stderr io.Writer) *cobra.Command {
	var html string
	cmd := &cobra.Command{
		Use:   "compare BASELINE DIR [DIR...] [--html FILE]",
		Short: "Compare runs of one experiment (two engines, versions, settings or machines): ratios with intervals and a verdict per metric",
		Long: `Compare run directories of the same experiment from their files alone. The
first is the baseline. Per metric (tps per scale, time per query, ...) the
page gives both values, the ratio with a bootstrap confidence interval from
the repetitions, and a verdict: faster or slower when the interval excludes
1 and the Mann-Whitney test of the repetitions is significant at 0.05
after the Benjamini-Hochberg adjustment for the number of metrics; no
significant difference otherwise. Fewer than 3 repetitions give no
interval; fewer than the test needs to reach 0.05 (3 against 3 or 4)
give the interval and "too few repetitions", never a verdict; 4 against
4 is the least that can be judged, 5 or more in practice. A table says what differs between the runs
(engine, version, settings, flags, machine), and the diagrams overlay them.
Wisconsin runs of several engines also get the engines view (each query
relative to the fastest engine).`,
		Args: minArgs(2, "the baseline run directory and at least one other"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := refuseRunFile("html", html, "", "compare.html"); err != nil {
				return err
			}
			for _, dir := range args {
				if _, err := os.Stat(filepath.Join(dir, "results.json")); err != nil {
					return usagef("%s: not a run directory (no results.json): give run directories, as dbgauge list shows them", dir)
				}
				if err := readableRun(dir); err != nil {
					return err
				}
			}
			if html == "" {
				html = filepath.Join(defaultRunsDir, time.Now().UTC().Format("20060102T150405Z")+"-compare.html")
			}
			d, err := htmlreport.Compare(args)
			if err != nil {
				return usagef("%v", err)
			}
			b, err := htmlreport.Render(d)
			if err != nil {
				return err
			}
			if err := writePage(html, b); err != nil {
				return usagef("--html %s: %v", html, err)
			}
			for _, h := range d.Summary {
				fmt.Fprintf(stdout, "%s: %s", h.Label, h.Value)
				if h.Note != "" {
					fmt.Fprintf(stdout, " (%s)", h.Note)
				}
				fmt.Fprintln(stdout)
			}
			for _, w := range d.Warnings {
				fmt.Fprintf(stdout, "warning: %s\n", w)
			}
			fmt.Fprintf(stdout, "report: %s\n", html)
			return nil
		},
	}
	cmd.Flags().StringVar(&html, "html", "", "where to write the page (default runs/<UTC time>-compare.html)")
	return cmd
}
