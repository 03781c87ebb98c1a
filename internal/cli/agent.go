package cli

import (
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/nodes"
)

func init() { registerCommand("agent", newAgent) }

func newAgent(stdout, stderr io.Writer) *cobra.Command {
	var master, name, token, caFile, dir, db string
	wait := flagtype.Duration(5 * time.Minute).WithExample("10m")
	cmd := &cobra.Command{
		Use:   "agent --master nats://HOST:PORT [--name N] [--token T]",
		Short: "A remote load node: runs its share of a dsbench sweep's clients for the master",
		Long: `Run on each load machine of a distributed sweep. The agent dials the
master's NATS (retrying until it answers or --wait runs out), registers,
receives its share of the clients per scale, opens its connections to the
database, starts each cycle at the time the master announces (its clock
offset from the master's estimated and recorded), and sends one compressed
histogram and its counts per cycle. It keeps its own interval log of every
cycle under --dir, the durable copy of what it measured. It stops its load
when the master has been silent for 10 s, and exits when the master ends the
run.

The master and every agent must run the same dbgauge build; an agent of
another version or configuration is refused. On any address but loopback
the master requires a token (--token or $DBGAUGE_TOKEN) and TLS (--tls-ca
names the authority of the master's certificate, or the self-signed
certificate itself).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			u, err := url.Parse(master)
			if err != nil || (u.Scheme != "nats" && u.Scheme != "tls") || u.Hostname() == "" {
				return usagef("--master %q: give the master's NATS URL, e.g. --master nats://192.0.2.10:4222", master)
			}
			if token == "" {
				token = os.Getenv(tokenEnv)
			}
			if err := nodes.CheckExposure(u.Hostname(), token, u.Scheme == "tls" || caFile != ""); err != nil {
				return usagef("--master %s: %v: add --token (or $%s) and --tls-ca (with a tls:// URL), as the master was started with", master, err, tokenEnv)
			}
			if caFile != "" {
				// Read now: NATS would read it at the first dial only, and
				// call a bad file a master missing until --wait runs out.
				if err := checkCAFile(caFile); err != nil {
					return err
				}
			}
			if db != "" {
				if _, err := dbms.ParseURL(db); err != nil {
					return usagef("--db: %v", err)
				}
			}
			if name == "" {
				host, _ := os.Hostname()
				name = host
			}
			if !validName(name) {
				return usagef("--name %q: use letters, digits, '-' and '_' (it is part of NATS subjects and file names)", name)
			}
			logf := func(f string, a ...any) {
				fmt.Fprintf(stderr, "%s %s\n", time.Now().Format("15:04:05"), dbms.RedactPasswords(fmt.Sprintf(f, a...)))
			}
			err = nodes.Serve(cmd.Context(), nodes.AgentOptions{
				Dial: nodes.Dial{URL: master, Token: token, CAFile: caFile, Name: "dbgauge agent " + name},
				Name: name, Version: Version(), Wait: wait.V, Dir: dir, Env: nodes.Env{DB: db}, Log: logf,
			})
			if errors.Is(err, nodes.ErrRefused) || errors.Is(err, nodes.ErrCannotJoin) {
				return usagef("%v", err)
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&master, "master", "", "the master's NATS URL (nats://HOST:PORT, or tls://HOST:PORT with TLS), as dbgauge dsbench --listen prints it")
	fl.StringVar(&name, "name", "", "this agent's name among the master's agents; nodes are numbered in the order of their names (default: the host name)")
	fl.StringVar(&token, "token", "", "the master's token (default: $"+tokenEnv+")")
	fl.StringVar(&caFile, "tls-ca", "", "the authority of the master's TLS certificate (PEM; a self-signed certificate itself will do)")
	fl.Var(wait, "wait", "how long to wait for the master to answer")
	fl.StringVar(&dir, "dir", "agent-runs", "where the agent keeps its own interval logs (one directory per run)")
	fl.StringVar(&db, "db", "", "the database as this machine reaches it (default: the master's --db)")
	cobra.MarkFlagRequired(fl, "master")
	fl.SetAnnotation("master", exampleAnnotation, []string{"nats://HOST:4222"})
	return cmd
}

// validName is a name usable in a NATS subject token and a file name.
func validName(s string) bool {
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
		default:
			return false
		}
	}
	return s != ""
}

// checkCAFile refuses a --tls-ca that is missing, unreadable or holds no
// PEM certificate.
func checkCAFile(path string) error {
	const fix = "give the PEM file of the authority of the master's certificate (or its self-signed certificate)"
	b, err := readSmallFile("--tls-ca", path, fix)
	if err != nil {
		return err
	}
	if !x509.NewCertPool().AppendCertsFromPEM(b) {
		return usagef("--tls-ca %s: no PEM certificate in it: %s", path, fix)
	}
	return nil
}
