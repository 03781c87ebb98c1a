package cli

import (
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/ui"
)

func init() { registerCommand("ui", newUI) }

// newUI serves the local web interface until interrupted.
func newUI(stdout, stderr io.Writer) *cobra.Command {
	var listen, dir, token string
	var hosts []string
	var readOnly bool
	cmd := &cobra.Command{
		Use:   "ui [--listen 127.0.0.1:8080] [--dir runs] [--token T] [--host NAME] [--read-only]",
		Short: "A local web interface: run forms, the history of runs, their reports, live pages, replays, and the comparison of ticked runs",
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
$DBGAUGE_TOKEN) of 16 random bytes or more (e.g. $(openssl rand -hex 16));
every request must then carry the token: open the address printed at
start (it ends in ?token=..., which sets a cookie), or send the header
Authorization: Bearer T. A request must name the interface in its Host
header as the listener is named (on loopback 127.0.0.1, localhost or
[::1] with its port; else its address, or a name given with --host, e.g.
the one a reverse proxy passes on): any other is refused (421), so that a
site that points its own name at 127.0.0.1 cannot read or drive the
interface. Every button's request (launch, stop, abort, mark, save a
profile) carries a secret of the interface's own pages, and must come
from them, never from another site's.

New run (/new) has a form for every experiment command, made from its
flags: each field has the flag's default and help, the page shows the
equivalent dbgauge command as the fields change, and the command line's
own checks judge the values, so a bad value gets the very line dbgauge
would print, and nothing starts. A run is launched as a process,
this dbgauge binary with that command line and --out DIR/<UTC time>-NAME,
so it writes the same run directory and journal as on the command line,
and the browser goes to its live page. The run is a process of its own
(its own session, its output in DIR/.dbgauge-ui/jobs/RUN/stdout and
stderr): it goes on when the interface ends, however it ends (Ctrl-C, a
closed terminal, a kill), and dbgauge ui over the same --dir shows it
again; its live page's Stop and Abort end it. Launched runs (/jobs) shows
each one running or ended, with its exit code (known to the interface
that launched it) and the last lines of its output. A form's values can
be saved as a named profile (letters, digits, - _ .), kept as JSON in
DIR/.dbgauge-ui/profiles/EXPERIMENT/NAME.json, and loaded again from the
form. A profile's passwords (of --db and the other engine URLs, and
--token) are kept sealed with a key in DIR/.dbgauge-ui/profiles.key
(mode 0600), never shown in a page: the form says a password is saved,
and uses it while the field stays as shown.

--read-only refuses every request that would launch, stop, abort or mark
a run or save a profile (HTTP 403), and leaves those buttons off the
pages. Listing brings catalog.db up to date, as dbgauge list does.`,
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
			if err := ui.CheckToken(listen, token); err != nil {
				return usagef("--token (or $%s): %v: give 16 random bytes or more off loopback, e.g. --token $(openssl rand -hex 16)", tokenEnv, err)
			}
			for _, h := range hosts {
				if h == "" || strings.ContainsAny(h, "/@ \t") {
					return usagef("--host %q: give a name the browser uses for this interface, NAME or NAME:PORT, e.g. --host bench.example.org", h)
				}
			}
			exe, err := os.Executable()
			if err != nil {
				return fmt.Errorf("the forms launch this binary, which cannot be found: %w", err)
			}
			if err := ui.CheckDir(dir); err != nil {
				return usagef("--dir %s: %v (give the directory of runs with --dir)", dir, err)
			}
			l, err := net.Listen("tcp", listen)
			if err != nil {
				return usagef("--listen %s: %v: give a free address, e.g. --listen 127.0.0.1:8081", listen, err)
			}
			defer l.Close()
			h, err := ui.New(ui.Options{Dir: dir, Token: token, ReadOnly: readOnly, Experiments: forms{}, Binary: exe,
				Listen: l.Addr().String(), Hosts: hosts})
			if err != nil {
				return fmt.Errorf("dbgauge ui: %w", err)
			}
			addr := "http://" + l.Addr().String() + "/"
			if token != "" {
				addr += "?token=" + token
			}
			fmt.Fprintf(stdout, "dbgauge ui: %s (Ctrl-C stops)\n", addr)
			err = ui.Serve(cmd.Context(), l, h)
			for _, j := range h.Jobs() {
				if j.Running() {
					fmt.Fprintf(stderr, "dbgauge ui: %s (pid %d) goes on: dbgauge ui --dir %s shows it again, and its live page stops it\n", j.Rel, j.Pid, dir)
				}
			}
			return err
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:8080", "the address to serve on (HOST:PORT); any but loopback needs --token")
	cmd.Flags().StringVar(&dir, "dir", defaultRunsDir, "the directory of runs")
	cmd.Flags().StringVar(&token, "token", "", "a token every request must carry (default $DBGAUGE_TOKEN); needed off loopback")
	cmd.Flags().StringArrayVar(&hosts, "host", nil, "a further name the browser may call this interface by (NAME, any port, or NAME:PORT; repeatable), e.g. the name a reverse proxy passes on")
	cmd.Flags().BoolVar(&readOnly, "read-only", false, "refuse launching, stopping, aborting and marking runs and saving profiles, and hide their buttons")
	return cmd
}
