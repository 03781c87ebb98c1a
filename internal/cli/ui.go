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
		Short: "A local web interface: the history of runs, their reports, and the comparison of ticked runs",
		Long: `Serve dbgauge's web interface until interrupted (Ctrl-C). Everything it needs
is inside the binary; it fetches nothing from a network.

The first page is the history of the runs under --dir, from the same
catalog as dbgauge list, newest first, filtered by experiment, engine,
status and dates. Each run's report is one click away, and ticking two or
more runs of one experiment opens the page dbgauge compare writes (the
topmost ticked run is the baseline). Only files of the run directories
under --dir are served.

It listens on 127.0.0.1 by default. Any other address needs --token (or
$DBGAUGE_TOKEN); every request must then carry the token: open the address
printed at start (it ends in ?token=..., which sets a cookie), or send the
header Authorization: Bearer T.

Nothing in the interface writes yet (listing brings catalog.db up to date,
as dbgauge list does): --read-only is accepted for the pages that will
launch and stop runs, which it will then refuse.`,
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
	cmd.Flags().BoolVar(&readOnly, "read-only", false, "refuse the pages that start or stop runs (none exist yet: every page only reads)")
	return cmd
}
