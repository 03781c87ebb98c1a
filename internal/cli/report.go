package cli

import (
	"encoding/json"
	"github.com/dbgauge/dbgauge/internal/results"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/report"
)

// newReport prints the tables of one or more Wisconsin run directories side
// by side, from the stored results alone.
func newReport(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "report DIR [DIR...]",
		Short: "Print the tables of Wisconsin run directories, side by side (from results.json alone)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var runs []*results.WisconsinResults
			for _, dir := range args {
				rs, err := readWisconsinRuns(dir)
				if err != nil {
					return err
				}
				runs = append(runs, rs...)
			}
			_, err := stdout.Write(report.WisconsinText(runs))
			return err
		},
	}
}

// readWisconsinRuns reads DIR/results.json, or for a quickstart directory
// every DIR/*/run/results.json.
func readWisconsinRuns(dir string) ([]*results.WisconsinResults, error) {
	paths := []string{filepath.Join(dir, "results.json")}
	if _, err := os.Stat(paths[0]); err != nil {
		paths, _ = filepath.Glob(filepath.Join(dir, "*", "run", "results.json"))
		if len(paths) == 0 {
			return nil, usagef("%s: no results.json (is it a dbgauge run directory?)", dir)
		}
	}
	var out []*results.WisconsinResults
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, usagef("%v", err)
		}
		var r results.WisconsinResults
		if err := json.Unmarshal(b, &r); err != nil || r.Experiment != "wisconsin" {
			return nil, usagef("%s: not the results of a Wisconsin run", p)
		}
		out = append(out, &r)
	}
	return out, nil
}
