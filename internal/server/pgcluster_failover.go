package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// failover after the primary crashed promotes the standby that has
// received the most WAL (with --sync, the synchronous standby has every
// acknowledged commit, so none is lost), points the other standbys at it
// (a slot of their name on it, primary_conninfo, reload: a standby
// follows the new timeline by itself), and with Sync makes the next
// standby synchronous for it. The crashed node is a standby from now on
// (rejoin rebuilds it). A crashed standby needs nothing: its readers go
// to the other nodes.
func (pgClusterKind) failover(ctx context.Context, c *Cluster, dead int) (int, error) {
	d := c.Nodes[dead]
	if d.Role != RolePrimary {
		return -1, nil
	}
	best, most := -1, int64(-1)
	for i, n := range c.Nodes {
		if i == dead || n.Role != RoleStandby || !n.alive() {
			continue
		}
		var v string
		err := pgValue(ctx, n.Instance, "SELECT coalesce(pg_wal_lsn_diff(pg_last_wal_receive_lsn(), '0/0'), 0)::bigint::text", func(s string) bool {
			v = s
			return true
		})
		if err != nil {
			return -1, fmt.Errorf("ask standby %s how much WAL it received: %w", n.Name, err)
		}
		if got, _ := strconv.ParseInt(v, 10, 64); got > most {
			best, most = i, got
		}
	}
	if best < 0 {
		return -1, fmt.Errorf("no standby runs to promote")
	}
	p := c.Nodes[best]
	var follow []*Node
	for i, n := range c.Nodes {
		if i != best && i != dead && n.alive() {
			follow = append(follow, n)
		}
	}
	if c.Sync {
		// Set before the promotion (a standby ignores it): no commit on
		// the new primary returns before a standby has it. The crashed
		// node comes last: it streams again only once rebuilt.
		names := []string{}
		for _, n := range follow {
			names = append(names, n.Name)
		}
		names = append(names, d.Name)
		p.Settings["synchronous_standby_names"] = "FIRST 1 (" + strings.Join(names, ", ") + ")"
		if err := pgReload(ctx, p); err != nil {
			return -1, fmt.Errorf("make %s synchronous for %s: %w", names[0], p.Name, err)
		}
	}
	if err := pgPromote(ctx, p); err != nil {
		return -1, fmt.Errorf("promote %s: %w", p.Name, err)
	}
	p.Role, d.Role = RolePrimary, RoleStandby
	delete(d.Settings, "synchronous_standby_names")
	for _, n := range follow {
		if err := pgFollow(ctx, p, n); err != nil {
			return best, err
		}
	}
	for _, n := range follow {
		if err := pgWaitStreaming(ctx, p, n.Name); err != nil {
			return best, err
		}
	}
	return best, nil
}

// pgFollow makes standby n stream from primary p: a replication slot of
// its name on p (a promoted standby has none: slots are not copied by a
// base backup), and n's primary_conninfo naming p's port.
func pgFollow(ctx context.Context, p, n *Node) error {
	if err := pgExec(ctx, p.Instance, "SELECT pg_create_physical_replication_slot('"+n.Name+"') WHERE NOT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = '"+n.Name+"')"); err != nil {
		return fmt.Errorf("slot %s on %s: %w", n.Name, p.Name, err)
	}
	conninfo := fmt.Sprintf("host=127.0.0.1 port=%d user=%s password=%s application_name=%s", p.Port, p.User, p.Password, n.Name)
	if err := pgExec(ctx, n.Instance, "ALTER SYSTEM SET primary_conninfo = "+pgQuote(conninfo)); err != nil {
		return fmt.Errorf("point %s at %s: %w", n.Name, p.Name, err)
	}
	return pgExec(ctx, n.Instance, "SELECT pg_reload_conf()")
}

// rejoin brings a crashed node back. A standby that crashed starts again
// and streams from the primary. A primary that crashed and was failed
// over may hold WAL the new primary never received (the acknowledged
// writes an asynchronous failover loses): it becomes a standby of the
// new primary from a new base backup, as an operator rebuilds one.
func (k pgClusterKind) rejoin(ctx context.Context, c *Cluster, n *Node) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, rejoinLimit)
	defer cancel()
	var p *Node
	for _, o := range c.Nodes {
		if o != n && o.Role == RolePrimary && o.alive() {
			p = o
		}
	}
	data := filepath.Join(n.Dir, "data")
	if _, err := os.Stat(filepath.Join(data, "standby.signal")); err == nil || p == nil || n.Role == RolePrimary {
		how := "restarted"
		if n.Role == RoleStandby && p != nil {
			how = "restarted; streams from " + p.Name
		}
		return how, k.startNode(ctx, c, n, false)
	}
	if err := pgExec(ctx, p.Instance, "SELECT pg_drop_replication_slot('"+n.Name+"') FROM pg_replication_slots WHERE slot_name = '"+n.Name+"'"); err != nil {
		return "", fmt.Errorf("drop the old slot %s on %s: %w", n.Name, p.Name, err)
	}
	// The crashed server's files go: its data and its socket's lock,
	// which names a dead pid.
	if err := os.RemoveAll(data); err != nil {
		return "", err
	}
	os.Remove(filepath.Join(n.Dir, "sock", fmt.Sprintf(".s.PGSQL.%d.lock", n.Port)))
	if err := pgBaseBackup(ctx, p, n); err != nil {
		return "", err
	}
	return "a new base backup of " + p.Name + "; streams from it", k.startNode(ctx, c, n, false)
}

// promoteLimit bounds a promotion: pg_promote waits up to a minute for
// the standby to leave recovery, and says whether it did.
const promoteLimit = 60

// pgPromote promotes standby n and returns once it takes writes.
func pgPromote(ctx context.Context, n *Node) error {
	qctx, cancel := context.WithTimeout(ctx, (promoteLimit+30)*time.Second)
	defer cancel()
	conn, err := pgConnect(qctx, n.Instance)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	var done bool
	if err := conn.QueryRow(qctx, fmt.Sprintf("SELECT pg_promote(true, %d)", promoteLimit)).Scan(&done); err != nil {
		return err
	}
	if !done {
		return fmt.Errorf("still in recovery after %d s", promoteLimit)
	}
	return nil
}

// pgExec runs one statement on the node's dbgauge database.
func pgExec(ctx context.Context, inst *Instance, stmt string) error {
	qctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgConnect(qctx, inst)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(qctx, stmt)
	return err
}
