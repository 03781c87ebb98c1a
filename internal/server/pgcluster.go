package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// A PostgreSQL primary with streaming standbys: node 1 is an ordinary
// private instance; each standby is a base backup of it (pg_basebackup -R
// -X stream -C -S nN: a replication slot per standby, so the primary keeps
// the WAL a standby has not received yet) started as a hot standby. Each
// node's cluster_name is its node name, which is also the name the
// primary knows its standbys by (the walreceiver's application_name).
//
// With Sync, once every standby streams, the primary's
// synchronous_standby_names becomes 'FIRST 1 (n2, n3, ...)': a commit
// returns once n2 has flushed it (the next standby takes over when n2 is
// gone). It is set only then: a primary that waited for absent standbys
// could not even create the database.
func init() { registerCluster("postgres", pgClusterKind{}) }

type pgClusterKind struct{}

func (pgClusterKind) available() error { return postgresKind{}.available() }

func (pgClusterKind) shape() ClusterShape {
	return ClusterShape{SizeFlag: "standbys", Offset: 1, Min: 1, Max: 8, Default: 0, Sync: true}
}

func (pgClusterKind) url(nodes []*Node) string {
	return fmt.Sprintf("postgres://%s:%s@%s/%s", nodes[0].User, nodes[0].Password, hostList(nodes), postgresDB)
}

func (k pgClusterKind) create(ctx context.Context, c *Cluster, opt ClusterOptions) error {
	for i, n := range c.Nodes {
		n.Engine, n.Role = "postgres", RoleStandby
		if i == 0 {
			n.Role = RolePrimary
		}
		n.Settings = map[string]string{}
		for key, v := range opt.Settings {
			n.Settings[key] = v
		}
		n.Settings["cluster_name"] = n.Name
	}
	if err := (postgresKind{}).start(ctx, c.Nodes[0].Instance); err != nil {
		return fmt.Errorf("primary: %w", err)
	}
	if err := c.Nodes[0].save(); err != nil {
		return err
	}
	for _, n := range c.Nodes[1:] {
		if err := pgBaseBackup(ctx, c.Nodes[0], n); err != nil {
			return fmt.Errorf("standby %s: %w", n.Name, err)
		}
		if err := k.startNode(ctx, c, n, false); err != nil {
			return fmt.Errorf("standby %s: %w", n.Name, err)
		}
	}
	if !c.Sync {
		return nil
	}
	names := make([]string, 0, len(c.Nodes)-1)
	for _, n := range c.Nodes[1:] {
		names = append(names, n.Name)
	}
	p := c.Nodes[0]
	p.Settings["synchronous_standby_names"] = "FIRST 1 (" + strings.Join(names, ", ") + ")"
	if err := pgReload(ctx, p); err != nil {
		return fmt.Errorf("make %s synchronous: %w", names[0], err)
	}
	return pgWaitSync(ctx, p, names)
}

// pgBaseBackup copies the primary into the standby's data directory and
// makes it a standby of it (standby.signal, primary_conninfo), with a
// replication slot of the standby's name.
func pgBaseBackup(ctx context.Context, primary, n *Node) error {
	bin, owner, err := postgresTools()
	if err != nil {
		return err
	}
	data := filepath.Join(n.Dir, "data")
	if err := owner.prepare(n.Dir, data, filepath.Join(n.Dir, "sock"), filepath.Join(n.Dir, "postgres.log")); err != nil {
		return err
	}
	// The password by the environment; -R writes it into the standby's
	// primary_conninfo (postgresql.auto.conf, in its 0700 data directory).
	n.User, n.Password = primary.User, primary.Password
	return owner.runEnv(ctx, n.Dir, []string{"PGPASSWORD=" + primary.Password}, filepath.Join(bin, "pg_basebackup"),
		"-h", "127.0.0.1", "-p", strconv.Itoa(primary.Port), "-U", primary.User,
		"-D", data, "-R", "-X", "stream", "-C", "-S", n.Name, "--checkpoint=fast")
}

// startNode starts a node from its data directory: the primary as it is,
// a standby (standby.signal in its data) streaming from the primary's
// port, and waits until a standby streams.
func (pgClusterKind) startNode(ctx context.Context, c *Cluster, n *Node, bootstrap bool) error {
	if err := (postgresKind{}).start(ctx, n.Instance); err != nil {
		return err
	}
	if err := n.save(); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(n.Dir, "data", "standby.signal")); errors.Is(err, os.ErrNotExist) {
		return nil // a primary, or a promoted standby
	}
	for _, p := range c.Nodes {
		if p != n && p.alive() && p.Role == RolePrimary {
			return pgWaitStreaming(ctx, p, n.Name)
		}
	}
	return nil // no primary runs: the standby waits for one by itself
}

// pgReload rewrites the node's settings file and has the server read it.
func pgReload(ctx context.Context, n *Node) error {
	owner, err := postgresOwner()
	if err != nil {
		return err
	}
	if err := writePostgresConf(filepath.Join(n.Dir, "data", postgresConf), n.Instance, filepath.Join(n.Dir, "sock"), owner); err != nil {
		return err
	}
	return pgValue(ctx, n.Instance, "SELECT pg_reload_conf()::text", func(string) bool { return true })
}

// pgWaitStreaming waits until the primary lists the standby as streaming.
func pgWaitStreaming(ctx context.Context, primary *Node, standby string) error {
	return pgWait(ctx, primary.Instance, fmt.Sprintf("standby %s streaming", standby),
		"SELECT coalesce(max(state), 'absent') FROM pg_stat_replication WHERE application_name = '"+standby+"'",
		func(v string) bool { return v == "streaming" })
}

// pgWaitSync waits until the primary counts the first standby as
// synchronous and the others as potential: each walsender reads the new
// setting in its own time after the reload.
func pgWaitSync(ctx context.Context, primary *Node, standbys []string) error {
	want := make([]string, len(standbys))
	for i, s := range standbys {
		want[i] = s + ":potential"
	}
	want[0] = standbys[0] + ":sync"
	return pgWait(ctx, primary.Instance, "standby "+standbys[0]+" synchronous, the others potential",
		"SELECT coalesce(string_agg(application_name || ':' || sync_state, ',' ORDER BY application_name), '') FROM pg_stat_replication",
		func(v string) bool { return v == strings.Join(want, ",") })
}

// pgWait polls a one-value query until ok accepts its answer, for at most
// two minutes.
func pgWait(ctx context.Context, inst *Instance, what, query string, ok func(string) bool) error {
	limit := 2 * time.Minute
	var last error
	return poll(ctx, limit, 100*time.Millisecond, func() (bool, error) {
		last = pgValue(ctx, inst, query, ok)
		return last == nil, nil
	}, func() error { return fmt.Errorf("%s: not after %s (last: %v)", what, limit, last) })
}

// errNotYet is a query answer that ok did not accept.
var errNotYet = errors.New("not yet")

// pgValue runs a one-value query on the node's dbgauge database and hands
// the answer to ok; it fails when the answer is not accepted.
func pgValue(ctx context.Context, inst *Instance, query string, ok func(string) bool) error {
	qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := pgConnect(qctx, inst)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	var v string
	if err := conn.QueryRow(qctx, query).Scan(&v); err != nil {
		return err
	}
	if !ok(v) {
		return fmt.Errorf("%w: %s", errNotYet, v)
	}
	return nil
}

// pgConnect opens a session on the node's dbgauge database as postgres.
func pgConnect(ctx context.Context, inst *Instance) (*pgx.Conn, error) {
	return pgConnectDB(ctx, inst, postgresDB)
}

// pgConnectDB opens a session on database db of the instance as its
// administrator, over loopback TCP.
func pgConnectDB(ctx context.Context, inst *Instance, db string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(fmt.Sprintf("postgres://127.0.0.1:%d/%s?sslmode=disable", inst.Port, db))
	if err != nil {
		return nil, err
	}
	cfg.User, cfg.Password = inst.User, inst.Password
	return pgx.ConnectConfig(ctx, cfg)
}
