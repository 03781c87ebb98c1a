package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/server"
)

func init() { registerCommand("server", newServer) }

func newServer(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "server",
		Short: "Start or stop a private local engine instance (postgres, mariadb, firebird) or cluster (galera, postgres with standbys)",
	}
	var dir string
	port := flagtype.Int(0).Check(flagtype.AtLeast(0, "")).Check(flagtype.AtMost(65535, "")).WithExample("5432")
	var settings []string
	var socket bool
	start := &cobra.Command{
		Use:   "start ENGINE --dir DIR",
		Short: "Start a private instance from the installed Debian packages; prints the URL for --db",
		Long: `Start a private instance from the installed Debian packages and print the
URL for --db: TCP on loopback, or with --socket the same database through the
instance's Unix-domain socket (inside DIR), in the form the engine's own
clients take (postgres://postgres:PASSWORD@/dbgauge?host=DIR/sock&port=P for
libpq, psql and pgbench; mysql://root:PASSWORD@unix(DIR/sock/mariadbd.sock)/dbgauge).

The instance is its owner's: run as root, the server runs as the engine
package's unprivileged user (postgres, mysql, firebird); every login needs
PASSWORD, made up when the instance is created and kept in
DIR/dbgauge-instance.json (mode 0600); the socket and the data are in
directories only the server's user may enter; the server reads and writes
files for SQL only inside DIR. A stopped instance keeps its port and
password: start it again and it prints the same URL (if another program
took the port, --port moves the instance).

Clusters, each node in DIR/n1, DIR/n2, ... on loopback ports:

  dbgauge server start galera --nodes 3 --dir DIR
      a MariaDB Galera cluster (packages mariadb-server, galera-4, rsync):
      n1 bootstraps it, the others join by state transfer; every node
      takes writes.
  dbgauge server start postgres --standbys 2 [--sync] --dir DIR
      a PostgreSQL primary (n1) and hot standbys streaming from it, each
      with a replication slot; --sync makes n2 synchronous.

A cluster prints one URL per node, then, last, one URL naming all nodes
(mysql://root:PASSWORD@127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3/dbgauge), which
--db takes. "server stop KIND --dir DIR" stops every node (the data
stays); "server start KIND --dir DIR" starts the stopped cluster again.`,
		Args: exactArgs(1, "the engine ("+strings.Join(serverKinds(), ", ")+")"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir == "" {
				return usagef("server start: --dir is required (a directory for the instance's data)")
			}
			opt := server.Options{Port: port.V, Settings: map[string]string{}}
			for _, s := range settings {
				k, v, ok := cut(s)
				if !ok {
					return usagef("--set %q: use name=value", s)
				}
				opt.Settings[k] = v
			}
			if err := knownServer(args[0]); err != nil {
				return err
			}
			if err := checkServerDir(dir); err != nil {
				return err
			}
			if port.V != 0 {
				// A port taken is found by the engine only after its data
				// directory was made, and said in its log.
				l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port.V)))
				if err != nil {
					return usagef("--port %d: %v: give a free port, or leave --port out for one", port.V, err)
				}
				l.Close()
			}
			if cluster, err := clusterStart(cmd, args[0], dir, port.V, socket, opt.Settings); cluster || err != nil {
				return err
			}
			if why := server.NoSocket(args[0]); socket && why != "" {
				return usagef("server start --socket: %s", why)
			}
			t := time.Now()
			inst, err := server.Start(cmd.Context(), args[0], dir, opt)
			if errors.Is(err, server.ErrRunning) || errors.Is(err, server.ErrPortTaken) || errors.Is(err, server.ErrLegacy) {
				return usagef("%v", err)
			}
			if err != nil {
				return err
			}
			url := inst.URL
			if socket {
				if inst.SocketURL == "" {
					err := fmt.Errorf("server start --socket: the %s instance in %s has no Unix socket (the directory's path is too long for a socket address): use a shorter --dir", inst.Engine, inst.Dir)
					if serr := inst.Stop(); serr != nil {
						err = fmt.Errorf("%w; %v", err, serr)
					}
					return err
				}
				url = inst.SocketURL
			}
			fmt.Fprintf(stderr, "started %s in %s (pid %d, port %d) in %.1f s\n", inst.Engine, inst.Dir, inst.PID, inst.Port, time.Since(t).Seconds())
			fmt.Fprintln(stdout, url)
			return nil
		},
	}
	start.Flags().StringVar(&dir, "dir", "", "directory holding the instance (created if missing)")
	start.Flags().Var(port, "port", "loopback port (default: the one the instance had, else a free one)")
	start.Flags().StringArrayVar(&settings, "set", nil, "server setting name=value (repeatable), e.g. --set shared_buffers=256MB")
	start.Flags().BoolVar(&socket, "socket", false, "print the URL through the instance's Unix-domain socket instead of the TCP one (postgres, mariadb)")
	start.Flags().Int("nodes", 3, "galera: how many nodes the cluster has")
	start.Flags().Int("standbys", 0, "postgres: start a primary and this many streaming standbys (a cluster)")
	start.Flags().Bool("sync", false, "postgres with --standbys: commits wait until the first standby has flushed them (synchronous_standby_names 'FIRST 1 (n2, ...)')")
	stop := &cobra.Command{
		Use:   "stop ENGINE --dir DIR",
		Short: "Stop the private instance in DIR (its data stays)",
		Args:  exactArgs(1, "the engine ("+strings.Join(serverKinds(), ", ")+")"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir == "" {
				return usagef("server stop: --dir is required")
			}
			if err := knownServer(args[0]); err != nil {
				return err
			}
			stopIt := server.Stop
			if server.HasCluster(dir) {
				stopIt = server.StopCluster
			} else if err := checkInstance(args[0], dir); err != nil {
				return err
			}
			if err := stopIt(args[0], dir); err != nil {
				return err
			}
			fmt.Fprintf(stderr, "stopped %s in %s\n", args[0], dir)
			return nil
		},
	}
	stop.Flags().StringVar(&dir, "dir", "", "directory holding the instance")
	cmd.AddCommand(start, stop)
	return cmd
}

// serverKinds are the engines and clusters `server start` knows, sorted
// and each once (postgres is both).
func serverKinds() []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range append(server.Engines(), server.ClusterKinds()...) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func knownServer(engine string) error {
	known := serverKinds()
	for _, e := range known {
		if e == engine {
			return nil
		}
	}
	return usagef("unknown server engine %q (known: %s)", engine, strings.Join(known, ", "))
}

// checkServerDir refuses a --dir that server start could not make its
// instance in: a file, or below a file or a directory it may not write.
// Nothing is made here.
func checkServerDir(dir string) error {
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		if err == nil {
			if !st.IsDir() {
				return usagef("--dir %s: %s is a file: give a directory for the instance's data", dir, p)
			}
			if unix.Access(p, unix.W_OK|unix.X_OK) != nil {
				return usagef("--dir %s: %s is not writable: give a directory for the instance's data that you may write", dir, p)
			}
			return nil
		}
		// Below a file, stat says ENOTDIR: the file is found further up.
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, unix.ENOTDIR) {
			return usagef("--dir %s: %v: give a directory for the instance's data", dir, err)
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// checkInstance refuses a server stop whose --dir holds no instance, or
// one of another engine, before anything is touched.
func checkInstance(engine, dir string) error {
	inst, err := server.LoadRecord(dir)
	if err != nil {
		return usagef("--dir %s: %v: give the --dir that dbgauge server start was given", dir, err)
	}
	if inst.Engine != engine {
		return usagef("--dir %s holds a %s instance, not %s: dbgauge server stop %s --dir %s", dir, inst.Engine, engine, inst.Engine, dir)
	}
	return nil
}

func cut(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '=' {
			return s[:i], s[i+1:], i > 0
		}
	}
	return "", "", false
}
