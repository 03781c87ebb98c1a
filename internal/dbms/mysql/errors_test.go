package mysql

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
)

func testOpenErrors(t *testing.T, ctx context.Context, inst *server.Instance) {
	closed, err := server.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, url, want string }{
		{"refused", fmt.Sprintf("mariadb://root@127.0.0.1:%d/dbgauge", closed), "cannot reach MariaDB at 127.0.0.1:" + fmt.Sprint(closed) + ": connection refused; is the server running?"},
		{"password", fmt.Sprintf("mysql://root:wrong@127.0.0.1:%d/dbgauge", inst.Port), "wrong user or password"},
		{"database", fmt.Sprintf("mysql://root:%s@127.0.0.1:%d/nodb", inst.Password, inst.Port), `database "nodb" does not exist`},
		{"no database", fmt.Sprintf("mysql://root:%s@127.0.0.1:%d", inst.Password, inst.Port), "names no database"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := dbms.Open(ctx, c.url)
			if err == nil {
				e.Close()
				t.Fatal("Open succeeded")
			}
			if dbms.Classify(err) != dbms.BadInput || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Open: %v (class %s), want bad_input containing %q", err, dbms.Classify(err), c.want)
			}
			if strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "wrong@") {
				t.Errorf("message is not one clean line: %q", err)
			}
		})
	}
}

func testRuntimeErrors(t *testing.T, ctx context.Context, e *Engine, url string) {
	for q, want := range map[string]dbms.Class{
		"SELEC 1":                   dbms.Syntax,
		"SELECT * FROM no_such_t":   dbms.Syntax,
		"SELECT no_such_col FROM t": dbms.Syntax,
	} {
		if _, err := e.Exec(ctx, q); dbms.Classify(err) != want {
			t.Errorf("%s: %v (class %s), want %s", q, err, dbms.Classify(err), want)
		}
	}
	if _, err := e.Exec(ctx, "CREATE TABLE t_lock (id INT PRIMARY KEY, v INT) ENGINE=InnoDB"); err != nil {
		t.Fatal(err)
	}
	defer e.DropTable(ctx, "t_lock")
	if _, err := e.Exec(ctx, "INSERT INTO t_lock VALUES (1, 0), (2, 0)"); err != nil {
		t.Fatal(err)
	}
	a, b := open(t, ctx, url), open(t, ctx, url)

	// A lock wait that outlasts innodb_lock_wait_timeout (1205) is a
	// deadlock failure, retried as sysbench retries it (docs/retries.md);
	// the true deadlock (1213) is testDeadlock's.
	t.Run("lock wait timeout", func(t *testing.T) {
		mustExec(t, ctx, a, "BEGIN", "UPDATE t_lock SET v = 1 WHERE id = 1")
		defer a.Exec(ctx, "ROLLBACK")
		mustExec(t, ctx, b, "SET SESSION innodb_lock_wait_timeout = 1")
		_, err := b.Exec(ctx, "UPDATE t_lock SET v = 2 WHERE id = 1")
		if dbms.Classify(err) != dbms.Deadlock || !isNumber(err, erLockWaitTimeout) {
			t.Errorf("blocked update: %v (class %s), want deadlock (1205)", err, dbms.Classify(err))
		}
	})

	t.Run("connection lost", func(t *testing.T) {
		id, err := a.ConnectionID(ctx)
		if err != nil {
			t.Fatal(err)
		}
		idB, err := b.ConnectionID(ctx)
		if err != nil || id == idB || id <= 0 {
			t.Fatalf("connection ids %d and %d (%v): want two distinct sessions", id, idB, err)
		}
		mustExec(t, ctx, b, fmt.Sprintf("KILL CONNECTION %d", id))
		_, err = a.Exec(ctx, "SELECT 1")
		if dbms.Classify(err) != dbms.ConnectionLost {
			t.Errorf("query on a killed session: %v (class %s), want connection_lost", err, dbms.Classify(err))
		}
	})
}

func mustExec(t *testing.T, ctx context.Context, e *Engine, qs ...string) {
	t.Helper()
	for _, q := range qs {
		if _, err := e.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}
