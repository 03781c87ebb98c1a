package cli

import (
	"fmt"
	"io"
	"net"
	"os"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/ui"
)

func init() { registerCommand("ui", newUI) }

// newUI serves the local web interface until interrupted.
func newUI(stdout, stderr io.Writer) *cobra.Command {
	var listen, dir, token string
	var readOnly bool
	cmd := &cobra.Command{
		Use:   "ui [--listen 127.0.0.1:8080] [--dir runs] [--token T] [--read-only]",
		Short: "A local web interface: the history of runs, their reports, live pages, replays, and the comparison of ticked runs",
		Long: `Serve dbgauge's web interface until interrupted (Ctrl-C). Everything it needs
is inside the binary; it fetches nothing from a network.

The first page is the history of the runs under --dir, from the same
catalog as dbgauge list, newest first, filtered by experiment, engine,
status and dates. Each run's report is one click away, and ticking two or
more runs of one experiment opens the page dbgauge compare writes (the
topmost ticked run is the baseline). Only files of the run directories
under --dir are served.

A run that is going has a live page (/runs/RUN/live, the "live" link): it
follows the run's live.jsonl and shows its phase, scale, cycle, remaining
and elapsed time, status, transactions, errors by class, remote nodes and
last output lines, with charts of the rate, residence times, load and the
sweep, each mark drawn on them. Its buttons Stop (at the end of the cycle
in flight), Abort (now, as Ctrl-C) and Mark write a request into the
run's control.jsonl. A run that has stopped is replayed through the same
page with its recorded pacing sped up (the "replay" link,
/runs/RUN/live?replay=10).

It listens on 127.0.0.1 by default. Any other address needs --token (or
$DBGAUGE_TOKEN); every request must then carry the token: open the address
printed at start (it ends in ?token=..., which sets a cookie), or send the
header Authorization: Bearer T. The buttons' requests must come from the
interface's own pages, never from another site's.

--read-only refuses every request that would change a run (HTTP 403) and
leaves the buttons off the pages. Listing brings catalog.db up to date, as
dbgauge list does.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if token == "" {
				token = os.Getenv(tokenEnv)
			}
			if _, _, err := net.SplitHostPort(listen); err != nil {
				return usagef("--listen %s: not HOST:PORT: give one, e.g. --listen 127.0.0.1:8080", listen)
			}
			if err := ui.CheckListen(listen, token); err != nil {
				return usagef("--listen %s: %v: add --token T (or $%s), or listen on loopback, e.g. --listen 127.0.0.1:8080", listen, err, tokenEnv)
			}
			h, err := ui.New(ui.Options{Dir: dir, Token: token, ReadOnly: readOnly})
			if err != nil {
				return usagef("--dir %s: %v (give the directory of runs with --dir)", dir, err)
			}
			l, err := net.Listen("tcp", listen)
			if err != nil {
				return usagef("--listen %s: %v: give a free address, e.g. --listen 127.0.0.1:8081", listen, err)
			}
			addr := "http://" + l.Addr().String() + "/"
			if token != "" {
				addr += "?token=" + token
			}
			fmt.Fprintf(stdout, "dbgauge ui: %s (Ctrl-C stops)\n", addr)
			return ui.Serve(cmd.Context(), l, h)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:8080", "the address to serve on (HOST:PORT); any but loopback needs --token")
	cmd.Flags().StringVar(&dir, "dir", defaultRunsDir, "the directory of runs")
	cmd.Flags().StringVar(&token, "token", "", "a token every request must carry (default $DBGAUGE_TOKEN); needed off loopback")
	cmd.Flags().BoolVar(&readOnly, "read-only", false, "refuse the requests that stop, abort or mark runs, and hide their buttons")
	return cmd
}
