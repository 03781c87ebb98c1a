package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/dbgauge/dbgauge/internal/server"
)

// TestServerStartSocket: server start prints the TCP URL as its one line of
// output, and with --socket the URL through the instance's Unix socket,
// which a client (pgx, as pgbench's libpq would) connects through.
func TestServerStartSocket(t *testing.T) {
	for _, socket := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "pg")
		args := []string{"server", "start", "postgres", "--dir", dir}
		if socket {
			args = append(args, "--socket")
		}
		code, stdout, stderr := run(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		t.Cleanup(func() { run("server", "stop", "postgres", "--dir", dir) })
		lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
		url := lines[0]
		inst, err := server.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		want, addr := "postgres://postgres:"+inst.Password+"@127.0.0.1:", "127.0.0.1"
		if socket {
			want, addr = "postgres://postgres:"+inst.Password+"@/dbgauge?host="+filepath.Join(dir, "sock")+"&port=", "unix"
		}
		if len(lines) != 1 || !strings.HasPrefix(url, want) {
			t.Errorf("%v printed %q: want one line starting %q", args, stdout, want)
			continue
		}
		ctx := context.Background()
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatalf("connect to %s: %v", url, err)
		}
		var got string
		err = c.QueryRow(ctx, "SELECT coalesce(host(inet_client_addr()), 'unix')").Scan(&got)
		c.Close(ctx)
		if err != nil || got != addr {
			t.Errorf("%s: client address %q (%v), want %q", url, got, err, addr)
		}
	}
	// Firebird's private instances have no socket: refused before starting.
	dir := t.TempDir()
	code, _, stderr := run("server", "start", "firebird", "--dir", dir, "--socket")
	if code != 2 || !strings.Contains(stderr, "TCP only") {
		t.Errorf("firebird --socket: exit %d, stderr %q; want 2 and TCP only", code, stderr)
	}
}
