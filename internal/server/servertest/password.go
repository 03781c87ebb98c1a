package servertest

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dbgauge/dbgauge/internal/server"
)

// PostgresPasswordRole adds to a private PostgreSQL instance the role
// user, owner of its database, with password, and returns the URL of that
// role without the password. The instance asks every login for its
// password already (initdb --auth=scram-sha-256: internal/server), so no
// rule of pg_hba.conf need change.
func PostgresPasswordRole(t testing.TB, inst *server.Instance, user, password string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	u, err := url.Parse(inst.URL)
	if err != nil {
		t.Fatal(err)
	}
	db := strings.TrimPrefix(u.Path, "/")
	c, err := pgx.Connect(ctx, inst.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	q := pgx.Identifier{user}.Sanitize()
	for _, s := range []string{
		fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s'", q, strings.ReplaceAll(password, "'", "''")),
		fmt.Sprintf("ALTER DATABASE %s OWNER TO %s", pgx.Identifier{db}.Sanitize(), q),
	} {
		if _, err := c.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	u.User = url.User(user)
	return u.String()
}
