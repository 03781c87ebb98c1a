package firebird

import (
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestPasswordOutsideURL gives SYSDBA's password through $ISC_PASSWORD,
// as Firebird's own tools take it, and through dbgauge's variable, to a
// URL without it; a refusal says where the password that failed came
// from, or where to give one.
func TestPasswordOutsideURL(t *testing.T) {
	inst := servertest.Start(t, "firebird", server.Options{})
	u, err := dbms.ParseURL(inst.URL)
	if err != nil {
		t.Fatal(err)
	}
	pw := u.Password
	if pw == "" {
		t.Fatalf("the private Firebird's URL %s has no password", u.Redacted())
	}
	raw := u.WithoutPassword()
	dbmstest.CheckPasswords(t, raw, "SELECT CURRENT_USER FROM RDB$DATABASE", []string{"ISC_PASSWORD", "ISC_USER"}, []dbmstest.PasswordCase{
		{Name: "none", Says: "no password was given: give it in $" + dbms.PasswordEnv + ", " + passwordPlaces},
		{Name: "ISC_PASSWORD", Env: map[string]string{"ISC_PASSWORD": pw}, User: "SYSDBA"},
		{Name: "ISC_PASSWORD-wrong", Env: map[string]string{"ISC_PASSWORD": "wrong"}, Says: "fix the password in $ISC_PASSWORD"},
		{Name: "dbgauge-first", Env: map[string]string{dbms.PasswordEnv: pw, "ISC_PASSWORD": "wrong"}, User: "SYSDBA"},
	})
}

// TestPageSizePasswordOutsideURL creates a database of another page size
// (through isql-fb) on a URL without the password, which the session
// found in $ISC_PASSWORD: isql-fb logs in with it too.
func TestPageSizePasswordOutsideURL(t *testing.T) {
	inst := servertest.Start(t, "firebird", server.Options{})
	u, err := dbms.ParseURL(inst.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(dbms.PasswordEnv, "")
	t.Setenv("ISC_PASSWORD", u.Password)
	bare, err := dbms.ParseURL(u.WithoutPassword())
	if err != nil {
		t.Fatal(err)
	}
	e := openURL(t, bare.Raw)
	ps, drop, err := e.CreatePageSizeDB(ctxT(t), bare, 16384)
	if err != nil {
		t.Fatalf("a database of 16 KiB pages on %s: %v", bare.Raw, err)
	}
	defer drop()
	defer ps.Close()
	if got, err := ps.(*Engine).PageSize(ctxT(t)); err != nil || got != 16384 {
		t.Errorf("the new database's page size: %d (%v), want 16384", got, err)
	}
}
