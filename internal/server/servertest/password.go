package servertest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dbgauge/dbgauge/internal/server"
)

// PostgresPasswordRole adds to a private PostgreSQL instance the role
// user, owner of its database, which must give password over TCP
// (scram-sha-256, whatever the instance's other rules say), and returns
// the URL of that role without the password.
func PostgresPasswordRole(t testing.TB, inst *server.Instance, user, password string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	u, err := url.Parse(inst.URL)
	if err != nil {
		t.Fatal(err)
	}
	db := strings.TrimPrefix(u.Path, "/")
	hba := filepath.Join(inst.Dir, "data", "pg_hba.conf")
	old, err := os.ReadFile(hba)
	if err != nil {
		t.Fatal(err)
	}
	// The first matching line decides: this one goes before the others.
	line := fmt.Sprintf("host all %s 127.0.0.1/32 scram-sha-256\n", user)
	if err := os.WriteFile(hba, append([]byte(line), old...), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := pgx.Connect(ctx, inst.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	q := pgx.Identifier{user}.Sanitize()
	for _, s := range []string{
		fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s'", q, strings.ReplaceAll(password, "'", "''")),
		fmt.Sprintf("ALTER DATABASE %s OWNER TO %s", pgx.Identifier{db}.Sanitize(), q),
		"SELECT pg_reload_conf()",
	} {
		if _, err := c.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	u.User = url.User(user)
	// The postmaster rereads pg_hba.conf on the signal pg_reload_conf
	// sends, later: wait until the role without a password is refused.
	cfg, err := pgx.ParseConfig(u.String())
	if err != nil {
		t.Fatal(err)
	}
	// (A private server asks every login for a password already; the
	// role must then also get in with its password, as the caller's runs
	// will.)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		cfg.Password = "" // whatever $PGPASSWORD or ~/.pgpass say
		c, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			cfg.Password = password
			if c, err = pgx.ConnectConfig(ctx, cfg); err == nil {
				c.Close(ctx)
				break
			}
		} else {
			c.Close(ctx)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the password rule never took effect (%v)", hba, err)
		}
	}
	return u.String()
}
