package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/results"
)

func init() { registerCommand("tag", newTag) }

// newTag is `dbgauge tag DIR [+]TAG... [-TAG...]`: the tags of a run
// after it ended.
func newTag(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tag DIR [+]TAG... [-TAG...]",
		Short: "Add tags to a run or remove them (-TAG); with no TAG, show its tags",
		Long: `Change the tags of the run in DIR after it ran: TAG or +TAG adds a tag,
-TAG removes one (adding comes first; a tag already there or not there is
left as it is). With no TAG, print the run's tags. A tag is letters,
digits and - _ . : =, begins with a letter or a digit and is at most 64
characters; runs are labelled when they start with --tag, and dbgauge
list --tag and the web interface's history find them by their tags.

The run's manifest.json is rewritten atomically and its row in the
catalog of runs follows. A run still being written (another dbgauge
process holds its journal, perhaps paused by --pause-on-error) is
refused, as is a directory that holds no run.`,
		Args: minArgs(1, "the run directory"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			add, remove, err := tagChanges(args[1:])
			if err != nil {
				return err
			}
			tags, changed, err := results.Retag(dir, add, remove)
			switch {
			case errors.Is(err, results.ErrRunBusy):
				return usagef("%v: wait for it to end, or stop it (Ctrl-C) first", err)
			case errors.Is(err, results.ErrNoManifest), errors.Is(err, os.ErrNotExist):
				return usagef("%v: give a run directory that dbgauge wrote", err)
			case err != nil:
				return err
			}
			if changed {
				if err := results.RegisterNearest(dir); err != nil {
					fmt.Fprintf(stderr, "warning: the catalog of runs was not updated (dbgauge list reads the run again): %v\n", err)
				}
			}
			if len(tags) == 0 {
				fmt.Fprintf(stdout, "%s: no tags\n", dir)
			} else {
				fmt.Fprintf(stdout, "%s: %s\n", dir, strings.Join(tags, " "))
			}
			return nil
		}}
	// Everything after DIR is a tag, so that -TAG is not taken for a flag.
	cmd.Flags().SetInterspersed(false)
	return cmd
}

// tagChanges reads the TAG arguments of dbgauge tag: TAG or +TAG adds,
// -TAG removes; each checked as --tag checks a tag.
func tagChanges(args []string) (add, remove []string, err error) {
	for _, a := range args {
		list, t := &add, strings.TrimPrefix(a, "+")
		if strings.HasPrefix(a, "-") {
			list, t = &remove, a[1:]
		}
		if err := results.CheckTag(t); err != nil {
			return nil, nil, usagef("tag %q: %v (example: dbgauge tag DIR +%s -old)", a, err, results.TagExample)
		}
		*list = append(*list, t)
	}
	return add, remove, nil
}
