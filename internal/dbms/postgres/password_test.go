package postgres

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestPasswordOutsideURL gives the password of a role that must give
// one the ways libpq's tools take it, and dbgauge's own variable, to a
// URL without it: each opens a session, dbgauge's variable before
// $PGPASSWORD; a refusal says where the password that failed came from,
// or where to give one.
func TestPasswordOutsideURL(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	const pw = "s3cret:pass"
	raw := servertest.PostgresPasswordRole(t, inst, "gauge", pw)
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	pgpass := fmt.Sprintf("%s:%s:*:gauge:s3cret\\:pass\n", u.Hostname(), u.Port())
	dbmstest.CheckPasswords(t, raw, "SELECT current_user", []string{"PGPASSWORD", "PGPASSFILE"}, []dbmstest.PasswordCase{
		{Name: "none", Says: "no password was given: give it in $" + dbms.PasswordEnv + ", " + passwordPlaces},
		{Name: "PGPASSWORD", Env: map[string]string{"PGPASSWORD": pw}, User: "gauge"},
		{Name: "PGPASSWORD-wrong", Env: map[string]string{"PGPASSWORD": "wrong"}, Says: "fix the password in $PGPASSWORD"},
		{Name: "pgpass", Files: map[string]string{".pgpass": pgpass}, User: "gauge"},
		{Name: "PGPASSFILE", Env: map[string]string{"PGPASSFILE": "$HOME/other"}, Files: map[string]string{"other": pgpass}, User: "gauge"},
		{Name: "PGPASSFILE-wrong", Env: map[string]string{"PGPASSFILE": "$HOME/other"}, Files: map[string]string{"other": "*:*:*:*:wrong\n"}, Says: "fix the password in $HOME/other"},
		{Name: "dbgauge-first", Env: map[string]string{dbms.PasswordEnv: pw, "PGPASSWORD": "wrong"}, User: "gauge"},
		{Name: "dbgauge-wrong", Env: map[string]string{dbms.PasswordEnv: "wrong", "PGPASSWORD": pw}, Says: "fix the password in $" + dbms.PasswordEnv},
	})
	// A password in the URL goes before every other place.
	withPass := fmt.Sprintf("postgres://gauge:%s@%s%s", url.QueryEscape(pw), u.Host, u.Path)
	dbmstest.CheckPasswords(t, withPass, "SELECT current_user", []string{"PGPASSWORD"}, []dbmstest.PasswordCase{
		{Name: "url-first", Env: map[string]string{dbms.PasswordEnv: "wrong", "PGPASSWORD": "wrong"}, User: "gauge"},
	})
	withParam := fmt.Sprintf("postgres://gauge@%s%s?password=%s", u.Host, u.Path, url.QueryEscape(pw))
	dbmstest.CheckPasswords(t, withParam, "SELECT current_user", []string{"PGPASSWORD"}, []dbmstest.PasswordCase{
		{Name: "url-parameter-first", Env: map[string]string{dbms.PasswordEnv: "wrong"}, User: "gauge"},
	})
}
