package postgres

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
)

// openErr opens url and returns the error, which must be one line.
func openErr(t *testing.T, url string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	e, err := dbms.Open(ctx, url)
	if err == nil {
		e.Close()
		t.Fatalf("open %s succeeded", url)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error is not one line: %q", err)
	}
	return err
}

func testOpenErrors(t *testing.T, inst *server.Instance) {
	closed, err := server.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	e := open(t, inst.URL)
	exec(t, e, "CREATE ROLE cannot_login NOLOGIN PASSWORD 'pw'")
	t.Cleanup(func() {
		e.Exec(context.Background(), "DROP ROLE cannot_login")
		e.Close()
	})
	for _, tc := range []struct {
		name, url, says string
	}{
		{"refused", fmt.Sprintf("postgres://postgres@127.0.0.1:%d/dbgauge", closed),
			fmt.Sprintf("cannot reach PostgreSQL at 127.0.0.1:%d: connection refused; is the server running?", closed)},
		// The private server asks every login for a password, and does
		// not say whether the role exists.
		{"no password", fmt.Sprintf("postgres://nobody_here@127.0.0.1:%d/dbgauge", inst.Port), `asks user "nobody_here" for a password: no password was given`},
		{"no such user", fmt.Sprintf("postgres://nobody_here:pw@127.0.0.1:%d/dbgauge", inst.Port), `rejected the password of user "nobody_here"`},
		{"user may not log in", fmt.Sprintf("postgres://cannot_login:pw@127.0.0.1:%d/dbgauge", inst.Port), `refused user "cannot_login"`},
		{"no such database", fmt.Sprintf("postgres://postgres:%s@127.0.0.1:%d/nodb", inst.Password, inst.Port), fmt.Sprintf(`database "nodb" does not exist on PostgreSQL at 127.0.0.1:%d: create it (createdb -h 127.0.0.1 -p %d -U postgres nodb)`, inst.Port, inst.Port)},
		// A URL parameter is a run-time setting the server checks at
		// connect: an unknown one, or a bad value, is the URL's mistake.
		{"unknown parameter", fmt.Sprintf("postgres://postgres:%s@127.0.0.1:%d/dbgauge?bogus_setting=1", inst.Password, inst.Port), `PostgreSQL at 127.0.0.1:` + fmt.Sprint(inst.Port) + ` refused the parameter of --db: unrecognized configuration parameter "bogus_setting"`},
		{"bad parameter value", fmt.Sprintf("postgres://postgres:%s@127.0.0.1:%d/dbgauge?work_mem=lots", inst.Password, inst.Port), `refused the parameter of --db: invalid value for parameter "work_mem"`},
	} {
		err := openErr(t, tc.url)
		t.Logf("%s: %v", tc.name, err)
		if dbms.Classify(err) != dbms.BadInput || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v (class %v); want bad_input saying %q", tc.name, err, dbms.Classify(err), tc.says)
		}
	}
}

// testWrongPassword makes a role of its own with a password and checks
// a wrong one is the user's mistake.
func testWrongPassword(t *testing.T, inst *server.Instance) {
	e := open(t, inst.URL)
	hba := value(t, e, "SHOW hba_file")
	orig, err := os.ReadFile(hba)
	if err != nil {
		t.Fatal(err)
	}
	exec(t, e, "CREATE ROLE pwuser LOGIN PASSWORD 'right'")
	t.Cleanup(func() {
		os.WriteFile(hba, orig, 0o600)
		e.Exec(context.Background(), "SELECT pg_reload_conf()")
		e.Exec(context.Background(), "DROP ROLE pwuser")
	})
	// pg_hba.conf is read top down: this line comes before the others.
	rule := "host all pwuser 127.0.0.1/32 scram-sha-256\n"
	if err := os.WriteFile(hba, append([]byte(rule), orig...), 0o600); err != nil {
		t.Fatal(err)
	}
	exec(t, e, "SELECT pg_reload_conf()")
	wrong := fmt.Sprintf("postgres://pwuser:wrong@127.0.0.1:%d/dbgauge", inst.Port)
	// The postmaster reloads on SIGHUP, asynchronously: wait for the rule.
	var err2 error
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var ok dbms.Engine
		if ok, err2 = dbms.Open(context.Background(), wrong); err2 != nil {
			break
		}
		ok.Close()
	}
	if err2 == nil {
		t.Fatal("the password rule never took effect")
	}
	if dbms.Classify(err2) != dbms.BadInput || !strings.Contains(err2.Error(), `rejected the password of user "pwuser"`) {
		t.Errorf("wrong password: %v (class %v), want bad_input naming the password", err2, dbms.Classify(err2))
	}
	open(t, fmt.Sprintf("postgres://pwuser:right@127.0.0.1:%d/dbgauge", inst.Port))
}

func testRuntimeErrors(t *testing.T, inst *server.Instance) {
	e := open(t, inst.URL)
	ctx := context.Background()
	for _, tc := range []struct {
		sql  string
		want dbms.Class
	}{
		{"SELEC 1", dbms.Syntax},
		{"SELECT * FROM no_such_table", dbms.Syntax},
		{"DO $$ BEGIN RAISE SQLSTATE '40001'; END $$", dbms.Serialization},
		{"DO $$ BEGIN RAISE SQLSTATE '40P01'; END $$", dbms.Deadlock},
		{"SELECT 1/0", dbms.Other},
	} {
		if _, err := e.Exec(ctx, tc.sql); dbms.Classify(err) != tc.want {
			t.Errorf("%s: %v is %v, want %v", tc.sql, err, dbms.Classify(err), tc.want)
		}
		if _, err := e.QueryCount(ctx, tc.sql); dbms.Classify(err) != tc.want {
			t.Errorf("QueryCount %s: %v is %v, want %v", tc.sql, err, dbms.Classify(err), tc.want)
		}
	}

	// statement_timeout cancels the query on the server (57014).
	exec(t, e, "SET statement_timeout = '20ms'")
	if _, err := e.QueryCount(ctx, "SELECT pg_sleep(30)"); dbms.Classify(err) != dbms.Timeout {
		t.Errorf("statement timeout: %v is %v, want timeout", err, dbms.Classify(err))
	}
	exec(t, e, "RESET statement_timeout")

	// Another session ends this one's backend: the session is lost.
	pid, err := e.BackendPID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	killer := open(t, inst.URL)
	if v := value(t, killer, fmt.Sprintf("SELECT pg_terminate_backend(%d, 10000)::text", pid)); v != "true" {
		t.Fatalf("pg_terminate_backend = %s", v)
	}
	if _, err := e.Exec(ctx, "SELECT 1"); dbms.Classify(err) != dbms.ConnectionLost {
		t.Errorf("after the backend was terminated: %v is %v, want connection_lost", err, dbms.Classify(err))
	}
}
