package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestPostgresStartRestartStop runs the whole life of a private cluster:
// settings applied, data kept across a restart, processes gone after stop.
func TestPostgresStartRestartStop(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	inst, err := Start(ctx, "postgres", dir, Options{Settings: map[string]string{"work_mem": "7MB", "application_name": "it's quoted"}})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			inst.Stop()
		}
	}()
	want := fmt.Sprintf("postgres://postgres:%s@127.0.0.1:%d/dbgauge", inst.Password, inst.Port)
	if inst.URL != want {
		t.Errorf("URL = %q, want %q", inst.URL, want)
	}
	if !alive(inst.PID) {
		t.Fatalf("postmaster pid %d is not running", inst.PID)
	}
	if _, err := os.Stat(filepath.Join(dir, "sock", fmt.Sprintf(".s.PGSQL.%d", inst.Port))); err != nil {
		t.Errorf("unix socket not in the instance directory: %v", err)
	}
	// The socket URL reaches the same database over the Unix socket (a
	// socket connection has no client address).
	wantSock := fmt.Sprintf("postgres://postgres:%s@/dbgauge?host=%s&port=%d", inst.Password, filepath.Join(dir, "sock"), inst.Port)
	if inst.SocketURL != wantSock {
		t.Errorf("SocketURL = %q, want %q", inst.SocketURL, wantSock)
	}
	if got := pgQuery(t, inst.SocketURL, "SELECT current_database()", "SELECT coalesce(inet_client_addr()::text, 'unix')", "SELECT current_user"); got[0] != "dbgauge" || got[1] != "unix" || got[2] != "postgres" {
		t.Errorf("through the socket URL: database, client address, user = %q; want dbgauge, unix, postgres", got)
	}
	if got := pgQuery(t, inst.URL, "SELECT host(inet_client_addr())"); got[0] != "127.0.0.1" {
		t.Errorf("through the TCP URL: client address %q, want 127.0.0.1", got[0])
	}

	got := pgQuery(t, inst.URL,
		"SHOW work_mem", "SHOW application_name", "SHOW listen_addresses", "SELECT current_database()", "SELECT pg_postmaster_start_time()::text")
	for i, w := range []string{"7MB", "it's quoted", "127.0.0.1", "dbgauge"} {
		if got[i] != w {
			t.Errorf("query %d = %q, want %q", i, got[i], w)
		}
	}
	pgQuery(t, inst.URL, "CREATE TABLE kept AS SELECT 42 AS v")

	// Another process finds the instance through the state file.
	loaded, err := Load(dir)
	if err != nil || loaded.PID != inst.PID || loaded.URL != inst.URL {
		t.Fatalf("Load = %+v, %v; want the started instance", loaded, err)
	}

	oldPID := inst.PID
	if err := inst.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if alive(oldPID) {
		t.Errorf("old postmaster %d still running after restart", oldPID)
	}
	if !alive(inst.PID) || inst.PID == oldPID {
		t.Errorf("restart: pid %d (old %d) should be a new live postmaster", inst.PID, oldPID)
	}
	after := pgQuery(t, inst.URL, "SELECT v::text FROM kept", "SHOW work_mem", "SELECT pg_postmaster_start_time()::text")
	if after[0] != "42" || after[1] != "7MB" || after[2] == got[4] {
		t.Errorf("after restart got %q: want the kept row, the setting, and a new start time", after)
	}

	children := childrenOf(inst.PID)
	if len(children) == 0 {
		t.Fatalf("postmaster %d has no child processes (checkpointer, walwriter...)", inst.PID)
	}
	if err := Stop("postgres", dir); err != nil {
		t.Fatal(err)
	}
	stopped = true
	if alive(inst.PID) {
		t.Errorf("postmaster %d still running after stop", inst.PID)
	}
	for _, pid := range children {
		if alive(pid) {
			t.Errorf("server process %d still running after stop", pid)
		}
	}
	if _, err := Load(dir); !errors.Is(err, ErrStopped) {
		t.Errorf("Load after stop: %v, want the instance recorded as stopped", err)
	}
	if _, err := pgx.Connect(ctx, inst.URL); err == nil {
		t.Errorf("connect after stop succeeded")
	}
}

// TestPostgresPortTaken: a start on a port already in use fails with the
// cause, and a later start in the same directory initialises cleanly.
func TestPostgresPortTaken(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	first, err := Start(ctx, "postgres", t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Stop()
	dir := t.TempDir()
	_, err = Start(ctx, "postgres", dir, Options{Port: first.Port})
	if err == nil {
		t.Fatal("second server on the same port started")
	}
	// The server log's reason is in the error, on one line.
	if !strings.Contains(err.Error(), "already in use") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error should name the cause on one line: %v", err)
	}
	second, err := Start(ctx, "postgres", dir, Options{})
	if err != nil {
		t.Fatalf("start after a failed start: %v", err)
	}
	defer second.Stop()
	if got := pgQuery(t, second.URL, "SELECT current_database()"); got[0] != "dbgauge" {
		t.Errorf("database = %q", got[0])
	}
}

func pgQuery(t *testing.T, url string, qs ...string) []string {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var out []string
	for _, q := range qs {
		var s string
		if strings.HasPrefix(q, "CREATE") {
			_, err = c.Exec(ctx, q)
		} else {
			err = c.QueryRow(ctx, q).Scan(&s)
		}
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		out = append(out, s)
	}
	return out
}

// alive reports whether pid is a running process; a zombie (exited, not yet
// reaped by an init that does not reap) counts as gone.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndex(s, ")")+1:])
	return len(fields) > 0 && fields[0] != "Z"
}
