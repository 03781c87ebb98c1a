package all

import (
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// The facts engines register reach packages without a session.
func TestRegisteredFacts(t *testing.T) {
	if !dbms.SameEngine("mariadb://root@127.0.0.1:1/d", "mysql://root@127.0.0.1:1/d") {
		t.Error("mariadb:// and mysql:// are one engine")
	}
	if dbms.SameEngine("postgres://u@h/d", "mysql://u@h/d") || dbms.SameEngine("oracle://u@h/d", "oracle://u@h/d") {
		t.Error("two engines, or an unknown one, taken for the same")
	}
	if p, ok := dbms.ServerProcess("mysqld_safe"); !ok || p.Product != "MySQL" || !p.Helper {
		t.Errorf("mysqld_safe: %+v %v, want MySQL's helper", p, ok)
	}
	if _, ok := dbms.ServerProcess("psql"); ok {
		t.Error("psql is a client, not a server process")
	}
	if len(dbms.DatabaseFileSuffixes()) == 0 {
		t.Error("no database file suffixes registered")
	}
}
