package server

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"
)

// A MariaDB Galera cluster: every node a mariadbd with the galera-4
// provider, each node in its own directory with a my.cnf of its own,
// replicating over gcomm on loopback ports. The first node bootstraps the
// cluster (--wsrep-new-cluster); the others start with empty data
// directories and are filled by a state transfer (rsync) from it.
//
// As root, the nodes run as the mysql user and their directories belong
// to it: the rsync state transfer fails (code 23) for a server running as
// root.
func init() { registerCluster("galera", galeraKind{}) }

type galeraKind struct{}

// galeraProvider is where Debian's galera-4 package puts the library.
const galeraProvider = "/usr/lib/galera/libgalera_smm.so"

func (galeraKind) available() error {
	if err := (mariadbKind{}).available(); err != nil {
		return err
	}
	if _, err := os.Stat(galeraProvider); err != nil {
		return fmt.Errorf("%s not found: install the Debian package galera-4 (apt-get install galera-4)", galeraProvider)
	}
	if _, err := exec.LookPath("rsync"); err != nil {
		return fmt.Errorf("rsync not found (Galera's state transfer uses it): apt-get install rsync")
	}
	return nil
}

func (galeraKind) shape() ClusterShape {
	return ClusterShape{SizeFlag: "nodes", Min: 1, Max: 9, Default: 3}
}

func (galeraKind) url(nodes []*Node) string {
	return fmt.Sprintf("mysql://%s:%s@%s/%s", nodes[0].User, nodes[0].Password, hostList(nodes), mariaDB)
}

// create gives each node its four loopback ports (SQL, group
// communication, incremental and full state transfer), writes the nodes'
// my.cnf, bootstraps the first node and lets the others join one at a
// time (two state transfers at once from one donor would queue anyway).
func (k galeraKind) create(ctx context.Context, c *Cluster, opt ClusterOptions) error {
	owner, err := mariaOwner()
	if err != nil {
		return err
	}
	gcomm := make([]string, len(c.Nodes))
	ports := make([][3]int, len(c.Nodes))
	for i := range c.Nodes {
		for j := range ports[i] {
			if ports[i][j], err = FreePort(); err != nil {
				return err
			}
		}
		gcomm[i] = fmt.Sprintf("127.0.0.1:%d", ports[i][0])
	}
	for i, n := range c.Nodes {
		n.Engine, n.Role, n.User = "mariadb", RoleNode, "root"
		n.Settings = map[string]string{}
		for key, v := range opt.Settings {
			n.Settings[key] = v
		}
		for key, v := range galeraSettings(c, n, gcomm, ports[i]) {
			if _, set := n.Settings[key]; !set {
				n.Settings[key] = v
			}
		}
		if err := galeraLayout(n, owner); err != nil {
			return err
		}
	}
	// Only the first node is initialised: the others' empty data
	// directories are filled by a state transfer from it.
	first := c.Nodes[0]
	if err := writeGaleraCnf(first); err != nil {
		return err
	}
	opts := []string{"--defaults-file=" + galeraCnf(first)}
	if os.Geteuid() == 0 {
		opts = append(opts, "--user=mysql")
	}
	if err := mariaInstall(ctx, first.Instance, owner, opts...); err != nil {
		return err
	}
	for i, n := range c.Nodes {
		if err := k.startNode(ctx, c, n, i == 0); err != nil {
			return fmt.Errorf("node %s: %w", n.Name, err)
		}
	}
	return nil
}

// galeraSettings are a node's server options beyond the user's: what the
// Galera documentation requires (row binlog, InnoDB, interleaved
// auto-increment locks) and the node's addresses.
func galeraSettings(c *Cluster, n *Node, gcomm []string, ports [3]int) map[string]string {
	s := map[string]string{
		"binlog_format":             "ROW",
		"default_storage_engine":    "InnoDB",
		"innodb_autoinc_lock_mode":  "2",
		"wsrep_on":                  "ON",
		"wsrep_provider":            galeraProvider,
		"wsrep_cluster_name":        "dbgauge-" + filepath.Base(c.Dir),
		"wsrep_cluster_address":     "gcomm://" + strings.Join(gcomm, ","),
		"wsrep_node_name":           n.Name,
		"wsrep_node_address":        fmt.Sprintf("127.0.0.1:%d", ports[0]),
		"wsrep_provider_options":    fmt.Sprintf("gmcast.listen_addr=tcp://127.0.0.1:%d;ist.recv_addr=127.0.0.1:%d;gcache.size=64M", ports[0], ports[1]),
		"wsrep_sst_receive_address": fmt.Sprintf("127.0.0.1:%d", ports[2]),
		"wsrep_sst_method":          "rsync",
	}
	if os.Geteuid() == 0 {
		s["user"] = "mysql"
	}
	return s
}

// galeraLayout creates the node's directory, owned by the server's user
// (the state transfer writes there), and inside it what a private
// MariaDB has (mariaLayout; the log exists before the server starts, its
// output goes there too).
func galeraLayout(n *Node, owner osOwner) error {
	if err := os.MkdirAll(n.Dir, 0o750); err != nil {
		return err
	}
	if err := owner.chown(n.Dir); err != nil {
		return err
	}
	return mariaLayout(n.Instance, owner)
}

// galeraCnf writes the node's my.cnf (the state transfer scripts read the
// server's options from it) and returns its path.
func galeraCnf(n *Node) string { return filepath.Join(n.Dir, "my.cnf") }

func writeGaleraCnf(n *Node) error {
	var b strings.Builder
	b.WriteString("# written by dbgauge at every start of the node: edits are lost\n[mysqld]\n")
	fixed := mariaFixed(n.Instance, filepath.Join(n.Dir, "data"))
	keys := make([]string, 0, len(n.Settings))
	for k := range n.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fixed = append(fixed, [2]string{k, n.Settings[k]})
	}
	for _, kv := range fixed {
		if kv[1] == "" {
			fmt.Fprintf(&b, "%s\n", kv[0])
		} else {
			fmt.Fprintf(&b, "%s=%s\n", kv[0], kv[1])
		}
	}
	return os.WriteFile(galeraCnf(n), []byte(b.String()), 0o644)
}

// startNode writes the node's my.cnf and starts it: the first node of a
// cluster with no other node running bootstraps it (after marking its
// state safe to bootstrap from: dbgauge's clusters restart from node 1,
// stopped last); the others join and are ready once synced.
func (galeraKind) startNode(ctx context.Context, c *Cluster, n *Node, bootstrap bool) (err error) {
	if err := writeGaleraCnf(n); err != nil {
		return err
	}
	data := filepath.Join(n.Dir, "data")
	var extra []string
	if bootstrap {
		if err := galeraSafeToBootstrap(data); err != nil {
			return err
		}
		extra = append(extra, "--wsrep-new-cluster")
	}
	logPath := filepath.Join(n.Dir, mariaLog)
	logStart := mariaLogSize(logPath)
	bin, err := mariaBin("mariadbd")
	if err != nil {
		return err
	}
	pos, err := galeraRecover(ctx, n, bin, data)
	if err != nil {
		return err
	}
	if pos != "" {
		extra = append(extra, "--wsrep-start-position="+pos)
	}
	// --defaults-file must come first; --datadir again on the command line
	// is how mariaKill knows the process as this node's server.
	args := append([]string{"--defaults-file=" + galeraCnf(n), "--datadir=" + data}, extra...)
	if err := mariaStart(n.Instance, bin, args); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			mariaKill(n.PID, data)
		}
	}()
	if err := galeraSynced(ctx, n, logPath, logStart); err != nil {
		return err
	}
	mariaURLs(n.Instance)
	if bootstrap {
		return mariaCreateDB(ctx, n.Instance)
	}
	return nil
}

var (
	unknownSeqno      = regexp.MustCompile(`(?m)^seqno:\s*-1\s*$`)
	recoveredPosition = regexp.MustCompile(`WSREP: Recovered position: ([0-9a-f-]+:-?[0-9]+)`)
)

// galeraRecover finds, after a crash, the last transaction the node
// committed, as the packages' service does before it starts a node
// (galera_recovery): a node that stopped cleanly saved its position in
// grastate.dat, a crashed one did not (seqno -1), and without it the node
// would take a full state transfer (SST) when it joins, whose rsync donor
// refuses writes until it is done. With its position the node catches up
// from the other nodes' write-set cache (IST), while they take writes.
// It returns "" when the saved state needs no recovery.
func galeraRecover(ctx context.Context, n *Node, bin, data string) (string, error) {
	b, err := os.ReadFile(filepath.Join(data, "grastate.dat"))
	if os.IsNotExist(err) || (err == nil && !unknownSeqno.Match(b)) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	logPath := filepath.Join(n.Dir, "wsrep-recover.log")
	os.Remove(logPath)
	rctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(rctx, bin, "--defaults-file="+galeraCnf(n), "--datadir="+data, "--wsrep-recover", "--log-error="+logPath)
	cmd.Dir = n.Dir
	out, err := cmd.CombinedOutput()
	log, _ := os.ReadFile(logPath)
	if m := recoveredPosition.FindSubmatch(log); m != nil {
		return string(m[1]), nil
	}
	return "", fmt.Errorf("recover the crashed node's position (mariadbd --wsrep-recover): %v %s (log: %s)", err, strings.TrimSpace(string(out)), logPath)
}

var unsafeBootstrap = regexp.MustCompile(`(?m)^safe_to_bootstrap:\s*0\s*$`)

// galeraSafeToBootstrap marks the node's saved state as one the cluster
// may start from: Galera refuses --wsrep-new-cluster on a node that was
// not the last to leave, to protect writes only others saw. dbgauge's
// clusters are its own and always restart from node 1; a node that saw
// more is brought level by a state transfer when it joins.
func galeraSafeToBootstrap(data string) error {
	path := filepath.Join(data, "grastate.dat")
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !unsafeBootstrap.Match(b) {
		return nil
	}
	return os.WriteFile(path, unsafeBootstrap.ReplaceAll(b, []byte("safe_to_bootstrap: 1")), 0o644)
}

// galeraSynced waits until the node has joined the cluster and is synced
// (a joiner answers SQL before its state transfer ends: ready means
// wsrep_local_state_comment = Synced).
func galeraSynced(ctx context.Context, n *Node, logPath string, logStart int64) error {
	db, err := sql.Open("mysql", mariaDSN(n.Instance))
	if err != nil {
		return err
	}
	defer db.Close()
	limit := 3 * time.Minute
	state := "not answering"
	return poll(ctx, limit, 100*time.Millisecond, func() (bool, error) {
		var name string
		qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := db.QueryRowContext(qctx, "SHOW STATUS LIKE 'wsrep_local_state_comment'").Scan(&name, &state)
		cancel()
		if err == nil && state == "Synced" {
			return true, nil
		}
		if err != nil {
			state = err.Error()
		}
		if mariaExited(n.PID) {
			return false, fmt.Errorf("mariadbd exited at start: %s (log: %s)", mariaTail(logPath, logStart), logPath)
		}
		return false, nil
	}, func() error {
		return fmt.Errorf("node %s not synced after %s (state: %s; log: %s)", n.Name, limit, state, logPath)
	})
}

// mariaStart launches mariadbd with args in its own session (a terminal's
// Ctrl-C does not reach it), its output into the instance's log, and
// records the pid; a goroutine reaps it.
func mariaStart(inst *Instance, bin string, args []string) error {
	logf, err := os.OpenFile(filepath.Join(inst.Dir, mariaLog), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.Command(bin, args...)
	cmd.Dir = inst.Dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run %s: %w", bin, err)
	}
	inst.PID = cmd.Process.Pid
	done := make(chan struct{})
	mariaChildren.Store(inst.PID, done)
	go func() {
		cmd.Wait()
		close(done)
	}()
	return nil
}

// failover has nothing to do: every Galera node takes writes, and the
// others carry on as the primary component while they are a majority.
func (galeraKind) failover(context.Context, *Cluster, int) (int, error) { return -1, nil }

// rejoin starts the node again: it joins the running nodes and is
// brought level by an incremental state transfer from a donor's cache
// (or a full one when the cache no longer holds what it missed).
func (k galeraKind) rejoin(ctx context.Context, c *Cluster, n *Node) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, rejoinLimit)
	defer cancel()
	logPath := filepath.Join(n.Dir, mariaLog)
	logStart := mariaLogSize(logPath)
	if err := k.startNode(ctx, c, n, false); err != nil {
		return "restarted; state transfer from a running node", err
	}
	return "restarted; " + galeraTransfer(logPath, logStart) + " from a running node until synced", nil
}

// galeraTransfer says how a joining node was brought level, as the rsync
// state transfer script logged it since from: an incremental transfer
// from a donor's write-set cache, or a full copy (whose donor refuses
// writes meanwhile).
func galeraTransfer(logPath string, from int64) string {
	s, _ := mariaLogSince(logPath, from) // no log: no word on how
	switch {
	case strings.Contains(s, "rsync SST completed on joiner"):
		return "full state transfer (SST)"
	case strings.Contains(s, "rsync IST completed on joiner"):
		return "incremental state transfer (IST)"
	}
	return "state transfer"
}
