package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/live"
	"github.com/dbgauge/dbgauge/internal/results"
)

// `dbgauge mark` and `dbgauge stop` ask a running run what the live page's
// buttons ask: the same request, appended to its control.jsonl, which the
// run reads every second.

func init() {
	registerCommand("mark", newMark)
	registerCommand("stop", newStop)
}

func newMark(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "mark DIR TEXT",
		Short: "Mark an event in a running run: journalled, and shown on its live page and charts",
		Long: `Mark an event ("killed node 2", "vacuum started") in the run that is
running in DIR: within about a second the run journals it as a mark entry
with its text and the time it was asked for, prints it, and writes it into
its live stream (live.jsonl), where the live page shows it on every chart.
A directory that holds no run, or a run that is not running, is refused
(exit code 2).`,
		Args: exactArgs(2, "the run directory and the text of the mark"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, text := args[0], strings.TrimSpace(args[1])
			if text == "" {
				return usagef("dbgauge mark: TEXT is empty: say what happened, e.g. dbgauge mark %s \"killed node 2\"", dir)
			}
			if err := ask(dir, live.Request{Mark: text}); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "marked in %s: %s\n", dir, text)
			return nil
		}}
}

func newStop(stdout, stderr io.Writer) *cobra.Command {
	var abort bool
	cmd := &cobra.Command{
		Use:   "stop DIR",
		Short: "Stop a running run at the end of its cycle in flight (or at once with --abort), keeping what it measured",
		Long: `Stop the run that is running in DIR. By default the run ends at the
end of its cycle in flight (dsbench) or of its unit in flight (the other
experiments that have units), with nothing measured discarded; its
results.json says complete: false and why, it exits with code 1, and
` + "`dbgauge resume DIR`" + ` continues it. An experiment that cannot stop between
units ends at once. With --abort the run ends at once, as Ctrl-C ends it:
the cycle in flight is not counted, every finished one is kept.
A directory that holds no run, or a run that is not running, is refused
(exit code 2).`,
		Args: exactArgs(1, "the run directory"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if err := ask(dir, live.Request{Stop: !abort, Abort: abort}); err != nil {
				return err
			}
			if abort {
				fmt.Fprintf(stdout, "abort asked of %s: the run ends now, keeping every finished cycle\n", dir)
			} else {
				fmt.Fprintf(stdout, "stop asked of %s: the run ends when its cycle in flight ends\n", dir)
			}
			return nil
		}}
	cmd.Flags().BoolVar(&abort, "abort", false, "end the run at once, as Ctrl-C does, instead of at the end of its cycle in flight")
	return cmd
}

// ask appends r to the requests of the run in dir, refusing a directory
// that holds no running run.
func ask(dir string, r live.Request) error {
	if err := results.CheckRunning(dir); err != nil {
		return usagef("%v", err)
	}
	if err := live.Ask(dir, r); err != nil {
		return fmt.Errorf("ask the run in %s: %w", dir, err)
	}
	return nil
}
