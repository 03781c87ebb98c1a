package cli

import (
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/results"
)

// runSetup is what every experiment command does before it runs: the run
// directory (out, or runs/<UTC time>-<name>), checked writable before
// anything is touched, and the manifest's command line and effective
// configuration with every URL's password hidden.
func runSetup(cmd *cobra.Command, name, out, db string) (experiment.Setup, error) {
	if out == "" {
		out = results.DefaultDir(defaultRunsDir, name, time.Now())
	}
	if err := results.CheckWritable(out); err != nil {
		return experiment.Setup{}, usagef("%v", err)
	}
	return experiment.Setup{DB: db, Dir: out, Command: redactArgs(os.Args),
		Config: redactConfig(effectiveFlags(cmd.Flags())), Version: Version()}, nil
}

// defaultRunsDir is where run directories go without --out, and the
// directory of runs `dbgauge list` reads by default.
const defaultRunsDir = "runs"
