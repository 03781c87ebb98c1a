package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGaleraCluster runs a three-node Galera cluster's whole life: every
// node synced and writable, a write on one seen on the others, a node
// killed and rejoining, the cluster stopped and started again from its
// directory with its data.
func TestGaleraCluster(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	dir := t.TempDir()
	c, err := StartCluster(ctx, "galera", dir, ClusterOptions{Nodes: 3, Settings: map[string]string{"max_connections": "77"}})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			c.Stop()
		}
	}()
	if len(c.Nodes) != 3 {
		t.Fatalf("%d nodes, want 3", len(c.Nodes))
	}
	want := fmt.Sprintf("mysql://root:%s@127.0.0.1:%d,127.0.0.1:%d,127.0.0.1:%d/dbgauge", c.Nodes[0].Password, c.Nodes[0].Port, c.Nodes[1].Port, c.Nodes[2].Port)
	if c.URL != want {
		t.Errorf("URL = %s, want %s", c.URL, want)
	}
	for i, n := range c.Nodes {
		if n.Role != RoleNode || n.Dir != filepath.Join(dir, fmt.Sprintf("n%d", i+1)) || !mariaServes(n.PID, filepath.Join(n.Dir, "data")) {
			t.Errorf("node %d: role %s dir %s pid %d", i+1, n.Role, n.Dir, n.PID)
		}
		got := mariaQuery(t, n.Instance, "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'WSREP_CLUSTER_SIZE'",
			"SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'WSREP_LOCAL_STATE_COMMENT'",
			"SELECT @@max_connections", "SELECT @@wsrep_node_name")
		if got[0] != "3" || got[1] != "Synced" || got[2] != "77" || got[3] != n.Name {
			t.Errorf("node %d: cluster size, state, max_connections, name = %q", i+1, got)
		}
	}
	mariaQuery(t, c.Nodes[1].Instance, "CREATE TABLE kept (id INT PRIMARY KEY, v INT)", "INSERT INTO kept VALUES (1, 42)")
	if got := mariaQuery(t, c.Nodes[2].Instance, "SET SESSION wsrep_sync_wait = 1", "SELECT v FROM kept WHERE id = 1"); got[1] != "42" {
		t.Errorf("a row written on node 2, read on node 3: %q, want 42", got[1])
	}

	// A node killed leaves two; started again, it catches up and rejoins.
	if err := c.Nodes[2].Kill(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "the cluster to shrink to 2", func() bool {
		return mariaQuery(t, c.Nodes[0].Instance, "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'WSREP_CLUSTER_SIZE'")[0] == "2"
	})
	mariaQuery(t, c.Nodes[0].Instance, "INSERT INTO kept VALUES (2, 43)")
	if err := c.StartNode(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if got := mariaQuery(t, c.Nodes[2].Instance, "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'WSREP_CLUSTER_SIZE'",
		"SELECT v FROM kept WHERE id = 2"); got[0] != "3" || got[1] != "43" {
		t.Errorf("rejoined node 3: cluster size and the row written while it was down = %q, want 3 and 43", got)
	}

	// Stopped, started again from the directory: same ports, data kept.
	if err := StopCluster("galera", dir); err != nil {
		t.Fatal(err)
	}
	stopped = true
	for _, n := range c.Nodes {
		if running(n.PID) {
			t.Errorf("node %s still runs after stop (pid %d)", n.Name, n.PID)
		}
	}
	if _, err := StartCluster(ctx, "galera", dir, ClusterOptions{Nodes: 2}); err == nil {
		t.Error("starting the 3-node cluster's directory as 2 nodes: no error")
	}
	again, err := StartCluster(ctx, "galera", dir, ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stopped = false
	c = again
	if again.URL != want {
		t.Errorf("restarted URL = %s, want %s", again.URL, want)
	}
	if got := mariaQuery(t, again.Nodes[1].Instance, "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'WSREP_CLUSTER_SIZE'",
		"SELECT SUM(v) FROM kept"); got[0] != "3" || got[1] != "85" {
		t.Errorf("restarted: cluster size and data = %q, want 3 and 85", got)
	}
	if err := again.Stop(); err != nil {
		t.Fatal(err)
	}
	stopped = true
}

// TestPostgresStandbys runs a primary with two streaming standbys, the
// first synchronous: roles, replication seen from the primary, a write
// replayed on the standbys, which refuse writes; a standby killed and
// started again streams again; stop and start from the directory.
func TestPostgresStandbys(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	dir := t.TempDir()
	c, err := StartCluster(ctx, "postgres", dir, ClusterOptions{Nodes: 3, Sync: true, Settings: map[string]string{"max_connections": "60"}})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			c.Stop()
		}
	}()
	roles := []string{RolePrimary, RoleStandby, RoleStandby}
	for i, n := range c.Nodes {
		if n.Role != roles[i] {
			t.Errorf("node %d: role %s, want %s", i+1, n.Role, roles[i])
		}
		got := pgQuery(t, n.URL, "SELECT pg_is_in_recovery()::text", "SHOW max_connections", "SHOW cluster_name")
		if got[0] != fmt.Sprint(i > 0) || got[1] != "60" || got[2] != n.Name {
			t.Errorf("node %d: in recovery, max_connections, cluster_name = %q", i+1, got)
		}
	}
	if got := pgQuery(t, c.Nodes[0].URL,
		"SELECT string_agg(application_name || ' ' || state || ' ' || sync_state, ', ' ORDER BY application_name) FROM pg_stat_replication",
		"SHOW synchronous_standby_names"); got[0] != "n2 streaming sync, n3 streaming potential" || got[1] != "FIRST 1 (n2, n3)" {
		t.Errorf("replication seen from the primary: %q", got)
	}
	pgQuery(t, c.Nodes[0].URL, "CREATE TABLE kept AS SELECT 42 AS v")
	// Synchronous: n2 has the commit once it returns (flushed; replayed
	// soon after), n3 in its own time.
	for _, n := range c.Nodes[1:] {
		waitFor(t, 30*time.Second, "the standby "+n.Name+" to replay the table", func() bool {
			return pgTry(n.Instance, "SELECT v::text FROM kept") == "42"
		})
		if err := pgTryExec(n.Instance, "INSERT INTO kept VALUES (1)"); err == nil || !strings.Contains(err.Error(), "read-only") {
			t.Errorf("a write on standby %s: %v, want a read-only error", n.Name, err)
		}
	}
	if err := c.Nodes[2].Kill(); err != nil {
		t.Fatal(err)
	}
	if err := c.StartNode(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if got := pgQuery(t, c.Nodes[0].URL, "SELECT state FROM pg_stat_replication WHERE application_name = 'n3'"); got[0] != "streaming" {
		t.Errorf("n3 after a kill and a start: %q, want streaming", got)
	}
	if err := StopCluster("postgres", dir); err != nil {
		t.Fatal(err)
	}
	stopped = true
	if _, err := Load(filepath.Join(dir, "n2")); !errors.Is(err, ErrStopped) {
		t.Errorf("a stopped node's instance: %v, want it recorded as stopped", err)
	}
	again, err := StartCluster(ctx, "postgres", dir, ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stopped = false
	c = again
	if got := pgQuery(t, again.Nodes[0].URL, "SELECT count(*)::text FROM pg_stat_replication WHERE state = 'streaming'", "SELECT v::text FROM kept"); got[0] != "2" || got[1] != "42" {
		t.Errorf("restarted: streaming standbys and data = %q, want 2 and 42", got)
	}
	if err := again.Stop(); err != nil {
		t.Fatal(err)
	}
	stopped = true
}

// TestClusterBadStarts: a kind too small, an occupied directory.
func TestClusterBadStarts(t *testing.T) {
	ctx := context.Background()
	if _, err := StartCluster(ctx, "postgres", t.TempDir(), ClusterOptions{Nodes: 1}); err == nil || !strings.Contains(err.Error(), "at least 2") {
		t.Errorf("a postgres cluster of 1 node: %v", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "something"), []byte("x"), 0o644)
	if _, err := StartCluster(ctx, "galera", dir, ClusterOptions{Nodes: 3}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a cluster in an occupied directory: %v", err)
	}
	if _, err := StartCluster(ctx, "cockroach", t.TempDir(), ClusterOptions{Nodes: 3}); err == nil {
		t.Error("an unknown cluster kind: no error")
	}
}

// waitFor polls cond every 100 ms until it holds or limit passes.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(limit); !cond(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", limit, what)
		}
	}
}

// pgTry runs a one-value query, "" on any error.
func pgTry(inst *Instance, query string) string {
	var v string
	err := pgValue(context.Background(), inst, query, func(s string) bool { v = s; return true })
	if err != nil {
		return ""
	}
	return v
}

// pgTryExec runs a statement and returns its error.
func pgTryExec(inst *Instance, stmt string) error {
	return pgValue(context.Background(), inst, stmt+" RETURNING 'x'", func(string) bool { return true })
}
