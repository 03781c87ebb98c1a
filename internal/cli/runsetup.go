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
// anything is touched, the manifest's command line and effective
// configuration with every URL's password hidden, and the run's tags
// (--tag, see addRunFlags). release is to be called when the run ends
// (see reserveOut).
func runSetup(cmd *cobra.Command, name, out, db string) (s experiment.Setup, release func(), err error) {
	out, release, err = reserveOut(out, name)
	if err != nil {
		return experiment.Setup{}, nil, err
	}
	return experiment.Setup{DB: db, Dir: out, Command: redactArgs(os.Args),
		Config: redactConfig(effectiveFlags(cmd.Flags())), Version: Version(), Tags: tagsOf(cmd.Flags())}, release, nil
}

// reserveOut is the run directory of a run of experiment name: out, checked
// writable and empty, or a new runs/<UTC time>-<name>, reserved (two runs
// started in the same second get two). release removes a reserved
// directory (and runs/, if it made it) that the run left empty: a run
// refused before it wrote anything leaves nothing behind. Call it when
// the run ends, whatever happened.
func reserveOut(out, name string) (dir string, release func(), err error) {
	release = func() {}
	if out == "" {
		if out, release, err = results.DefaultDir(defaultRunsDir, name, time.Now()); err != nil {
			return "", nil, usagef("%v", err)
		}
	}
	if err := results.CheckWritable(out); err != nil {
		release()
		return "", nil, usagef("%v", err)
	}
	return out, release, nil
}

// defaultRunsDir is where run directories go without --out, and the
// directory of runs `dbgauge list` reads by default.
const defaultRunsDir = "runs"
