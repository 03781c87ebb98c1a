package server

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMariaDBStartRestartStop runs the whole life of a private MariaDB:
// settings applied, data kept across a restart, the process gone after stop.
func TestMariaDBStartRestartStop(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	inst, err := Start(ctx, "mariadb", dir, Options{Settings: map[string]string{"max_connections": "77", "innodb-buffer-pool-size": "64M"}})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			inst.Stop()
		}
	}()
	want := fmt.Sprintf("mysql://root:%s@127.0.0.1:%d/dbgauge", inst.Password, inst.Port)
	if inst.URL != want {
		t.Errorf("URL = %q, want %q", inst.URL, want)
	}
	if !mariaServes(inst.PID, filepath.Join(dir, "data")) {
		t.Fatalf("pid %d is not a mariadbd on %s", inst.PID, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "sock", "mariadbd.pid")); err != nil {
		t.Errorf("pid file not in the instance directory: %v", err)
	}
	// The socket URL names the socket in the instance directory, and a
	// connection through it is a local one (host "localhost", not an address).
	sock := filepath.Join(dir, "sock", "mariadbd.sock")
	if want := "mysql://root:" + inst.Password + "@unix(" + sock + ")/dbgauge"; inst.SocketURL != want {
		t.Errorf("SocketURL = %q, want %q", inst.SocketURL, want)
	}
	if got := mariaQueryDSN(t, "root:"+inst.Password+"@unix("+sock+")/dbgauge",
		"SELECT DATABASE()", "SELECT HOST FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()"); got[0] != "dbgauge" || got[1] != "localhost" {
		t.Errorf("through the socket: database, host = %q; want dbgauge, localhost", got)
	}

	got := mariaQuery(t, inst,
		"SELECT @@max_connections", "SELECT @@innodb_buffer_pool_size", "SELECT @@bind_address",
		"SELECT @@local_infile", "SELECT DATABASE()", "SELECT CONCAT(@@datadir, '')")
	for i, w := range []string{"77", "67108864", "127.0.0.1", "1", "dbgauge", filepath.Join(dir, "data") + "/"} {
		if got[i] != w {
			t.Errorf("query %d = %q, want %q", i, got[i], w)
		}
	}
	mariaQuery(t, inst, "CREATE TABLE kept ENGINE=InnoDB AS SELECT 42 AS v")

	// Another process finds the instance through the state file.
	loaded, err := Load(dir)
	if err != nil || loaded.PID != inst.PID || loaded.URL != inst.URL {
		t.Fatalf("Load = %+v, %v; want the started instance", loaded, err)
	}

	oldPID := inst.PID
	if err := inst.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if !mariaExited(oldPID) {
		t.Errorf("old mariadbd %d still running after restart", oldPID)
	}
	if inst.PID == oldPID || !mariaServes(inst.PID, filepath.Join(dir, "data")) {
		t.Errorf("restart: pid %d (old %d) should be a new live mariadbd", inst.PID, oldPID)
	}
	after := mariaQuery(t, inst, "SELECT v FROM kept", "SELECT @@max_connections")
	if after[0] != "42" || after[1] != "77" {
		t.Errorf("after restart got %q: want the kept row and the setting", after)
	}

	pid := inst.PID
	if err := Stop("mariadb", dir); err != nil {
		t.Fatal(err)
	}
	stopped = true
	if !mariaExited(pid) {
		t.Errorf("mariadbd %d still running after stop", pid)
	}
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
		t.Errorf("/proc/%d still exists after stop: the process was not reaped", pid)
	}
	if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", inst.Port), time.Second); err == nil {
		c.Close()
		t.Errorf("port %d still accepts connections after stop", inst.Port)
	}
	if _, err := Load(dir); err == nil {
		t.Errorf("state file still in %s after stop", dir)
	}
	// Stopping a stopped instance is harmless and signals nobody.
	if err := (mariadbKind{}).stop(inst); err != nil {
		t.Errorf("second stop: %v", err)
	}
}

// TestMariaDBBadSetting shows a start failure names the server's complaint
// and leaves no process behind.
func TestMariaDBBadSetting(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err := Start(ctx, "mysql", t.TempDir(), Options{Settings: map[string]string{"no-such-option": "1"}})
	if err == nil {
		t.Fatal("start with an unknown mariadbd option succeeded")
	}
	if !strings.Contains(err.Error(), "no-such-option") {
		t.Errorf("error %q does not name the bad option", err)
	}
}

func TestMariaDBArgsSettingsLast(t *testing.T) {
	inst := &Instance{Dir: "/x", Port: 3307, Settings: map[string]string{"b": "2", "--a": "1", "skip-log-bin": ""}}
	args := mariaArgs(inst, "/x/data")
	if args[0] != "--no-defaults" {
		t.Errorf("first arg %q: --no-defaults must come first", args[0])
	}
	tail := strings.Join(args[len(args)-3:], " ")
	if tail != "--a=1 --b=2 --skip-log-bin" {
		t.Errorf("settings rendered as %q", tail)
	}
}

func mariaQuery(t *testing.T, inst *Instance, queries ...string) []string {
	t.Helper()
	return mariaQueryDSN(t, fmt.Sprintf("root:%s@tcp(127.0.0.1:%d)/dbgauge", inst.Password, inst.Port), queries...)
}

func mariaQueryDSN(t *testing.T, dsn string, queries ...string) []string {
	t.Helper()
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out []string
	for _, q := range queries {
		var v sql.NullString
		if strings.HasPrefix(q, "SELECT") {
			err = db.QueryRow(q).Scan(&v)
		} else {
			_, err = db.Exec(q)
		}
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		out = append(out, v.String)
	}
	return out
}
