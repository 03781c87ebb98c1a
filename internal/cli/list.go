package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/results"
)

func init() { registerCommand("list", newList) }

// newList lists the runs of a directory of runs from its catalog
// (results.CatalogFile), which it brings up to date with the run
// directories first, or rebuilds when it is lost.
func newList(stdout, stderr io.Writer) *cobra.Command {
	var dir string
	tags := &tagsValue{}
	cmd := &cobra.Command{
		Use:   "list [--dir runs] [--tag T]...",
		Short: "List the runs (newest first) with their experiment, engine, status and headline figure",
		Long: `List the runs under a directory of runs (default runs/), newest first: when
each started, the experiment, the engine and its version, whether it
finished (complete, failed, unfinished, incomplete), its headline figure
(DSI, geometric mean of the Wisconsin query times, highest throughput,
speedup, ...), its tags and its run directory. --tag T (repeatable, or
comma-separated) lists only the runs that carry every tag given. The list comes from the catalog
(catalog.db in that directory, an SQLite database updated as runs
finish); runs added, changed or removed since are noticed, and a lost or
damaged catalog is rebuilt from the run directories.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			entries, err := results.List(dir)
			if err != nil {
				return usagef("%v (give the directory of runs with --dir)", err)
			}
			return results.WriteCatalog(stdout, results.WithTags(entries, tags.tags))
		},
	}
	cmd.Flags().StringVar(&dir, "dir", defaultRunsDir, "the directory of runs")
	cmd.Flags().Var(tags, tagFlag, "list only the runs that carry this tag (repeatable, or comma-separated: every tag given)")
	return cmd
}
