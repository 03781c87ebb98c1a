package mysql

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestSessions runs the Transactor, Keys and SizeReporter checks on a
// private MariaDB of its own.
func TestSessions(t *testing.T) {
	inst := servertest.Start(t, "mariadb", server.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for _, iso := range []dbms.Isolation{dbms.RepeatableRead, dbms.ReadCommitted, dbms.Serializable} {
		t.Run("Transactions/"+iso.String(), func(t *testing.T) {
			dbmstest.CheckTransactions(t, ctx, open(t, ctx, inst.URL), iso, "tx_acct")
		})
	}
	t.Run("Isolation", func(t *testing.T) { testIsolation(t, ctx, inst) })
	t.Run("Protocol", func(t *testing.T) { testProtocol(t, ctx, inst) })
	t.Run("LockWait", func(t *testing.T) { testLockWait(t, ctx, inst) })
	t.Run("Deadlock", func(t *testing.T) { testDeadlock(t, ctx, inst) })
	t.Run("DeadlockUndetected", func(t *testing.T) { testDeadlockUndetected(t, ctx, inst) })
	t.Run("SnapshotIsolation", func(t *testing.T) { testSnapshotIsolation(t, ctx, inst) })
	t.Run("SerializableConflict", func(t *testing.T) { testSerializableConflict(t, ctx, inst) })
	t.Run("Keys", func(t *testing.T) {
		dbmstest.CheckKeys(t, ctx, open(t, ctx, inst.URL), "k_parent", "k_child", true)
	})
	t.Run("TableBytes", func(t *testing.T) {
		dbmstest.CheckTableBytes(t, ctx, open(t, ctx, inst.URL), "sized", 1000, nil)
	})
	t.Run("Reconnect", func(t *testing.T) {
		dbmstest.CheckReconnect(t, ctx, open(t, ctx, inst.URL), "SELECT CONNECTION_ID()")
	})
}

// testIsolation: Begin sets the session's level, once per change, and a
// reconnect forgets it (the new session has the server's default).
func testIsolation(t *testing.T, ctx context.Context, inst *server.Instance) {
	e := open(t, ctx, inst.URL)
	for _, tc := range []struct {
		iso  dbms.Isolation
		want string
	}{{dbms.ReadCommitted, "READ-COMMITTED"}, {dbms.Serializable, "SERIALIZABLE"}, {dbms.RepeatableRead, "REPEATABLE-READ"}} {
		if err := e.Begin(ctx, tc.iso); err != nil {
			t.Fatal(err)
		}
		if got := value(t, ctx, e, "SELECT @@tx_isolation"); got != tc.want {
			t.Errorf("Begin(%s): @@tx_isolation = %s, want %s", tc.iso, got, tc.want)
		}
		if err := e.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Begin(ctx, dbms.ReadCommitted); err != nil {
		t.Fatal(err)
	}
	if err := e.Begin(ctx, dbms.ReadCommitted); err == nil {
		t.Errorf("Begin inside a transaction: no error")
	}
	if err := e.Reconnect(ctx); err != nil {
		t.Fatal(err)
	}
	if e.InTransaction() {
		t.Errorf("transaction still open after Reconnect")
	}
	if err := e.Begin(ctx, dbms.ReadCommitted); err != nil {
		t.Fatal(err)
	}
	if got := value(t, ctx, e, "SELECT @@tx_isolation"); got != "READ-COMMITTED" {
		t.Errorf("after Reconnect: @@tx_isolation = %s, want READ-COMMITTED", got)
	}
	e.Rollback(ctx)
}

// testLockWait shows what InnoDB's REPEATABLE READ does with two sessions
// updating one row: the second waits for the first's row lock. With a
// lock wait timeout of 1 s it fails with 1205, dbms.Deadlock; when the first
// commits in time it goes on and updates the committed row (no conflict).
func testLockWait(t *testing.T, ctx context.Context, inst *server.Instance) {
	a, b := open(t, ctx, inst.URL), open(t, ctx, inst.URL)
	dbmstest.CreateAccounts(t, ctx, a, "lockw", 2)
	if err := a.AddPrimaryKey(ctx, "lockw", "id"); err != nil {
		t.Fatal(err)
	}
	const upd = "UPDATE lockw SET bal = bal + ? WHERE id = ?"
	mustExec(t, ctx, b, "SET SESSION innodb_lock_wait_timeout = 1")
	err := dbmstest.Collide(t, ctx, a, b, dbms.RepeatableRead, upd)
	if c := dbms.Classify(err); c != dbms.Deadlock || !isNumber(err, erLockWaitTimeout) {
		t.Errorf("update of a locked row: %v (class %v), want deadlock (1205)", err, c)
	}
	if err := b.Rollback(ctx); err != nil {
		t.Errorf("rollback after the lock wait timeout: %v", err)
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	mustExec(t, ctx, b, "SET SESSION innodb_lock_wait_timeout = 50")
	dbmstest.BeginAll(t, ctx, dbms.RepeatableRead, a, b)
	// b reads first: its snapshot predates a's update.
	if v, err := b.QueryInt(ctx, "SELECT bal FROM lockw WHERE id = ?", 1); err != nil || v != 1 {
		t.Fatalf("b's read: %d, %v", v, err)
	}
	if _, err := a.ExecArgs(ctx, upd, int64(10), 1); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := b.ExecArgs(ctx, upd, int64(100), 1)
		done <- err
	}()
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Errorf("update after the lock holder committed: %v, want success", err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if v := dbmstest.Balance(t, ctx, a, "lockw", 1); v != 111 {
		t.Errorf("bal = %d, want 111: both updates applied to the latest row", v)
	}
}

// testDeadlock: a and b lock rows 1 and 2, then each wants the other's:
// InnoDB rolls one of them back with 1213, dbms.Deadlock.
func testDeadlock(t *testing.T, ctx context.Context, inst *server.Instance) {
	a, b := open(t, ctx, inst.URL), open(t, ctx, inst.URL)
	dbmstest.CreateAccounts(t, ctx, a, "deadl", 2)
	// Without an index on id an UPDATE locks every row it scans.
	if err := a.AddPrimaryKey(ctx, "deadl", "id"); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Engine{a, b} {
		// Should the deadlock go unnoticed, fail in seconds, not 50
		// (with 1205, which the check of the number tells apart).
		mustExec(t, ctx, s, "SET SESSION innodb_lock_wait_timeout = 10")
	}
	err := dbmstest.Deadlock(t, ctx, a, b, dbms.RepeatableRead, "deadl")
	if c := dbms.Classify(err); c != dbms.Deadlock || !isNumber(err, erLockDeadlock) {
		t.Errorf("deadlock: %v (class %v), want deadlock (1213)", err, c)
	}
}

// testDeadlockUndetected: with innodb_deadlock_detect=OFF, a setting for
// high concurrency, InnoDB never looks for cycles, and a deadlock ends
// when a wait outlasts innodb_lock_wait_timeout: with 1205, which is why
// 1205 is a dbms.Deadlock too. a gives up after 1 s, b would wait 30.
func testDeadlockUndetected(t *testing.T, ctx context.Context, inst *server.Instance) {
	a, b := open(t, ctx, inst.URL), open(t, ctx, inst.URL)
	dbmstest.CreateAccounts(t, ctx, a, "deadu", 2)
	if err := a.AddPrimaryKey(ctx, "deadu", "id"); err != nil {
		t.Fatal(err)
	}
	mustExec(t, ctx, a, "SET GLOBAL innodb_deadlock_detect = OFF")
	t.Cleanup(func() { a.Exec(context.Background(), "SET GLOBAL innodb_deadlock_detect = ON") })
	mustExec(t, ctx, a, "SET SESSION innodb_lock_wait_timeout = 1")
	mustExec(t, ctx, b, "SET SESSION innodb_lock_wait_timeout = 30")
	err := dbmstest.Deadlock(t, ctx, a, b, dbms.RepeatableRead, "deadu")
	if c := dbms.Classify(err); c != dbms.Deadlock || !isNumber(err, erLockWaitTimeout) {
		t.Errorf("undetected deadlock: %v (class %v), want deadlock (1205)", err, c)
	}
}

// testSnapshotIsolation: with innodb_snapshot_isolation=ON (a URL setting,
// MariaDB 10.6.18 and later) REPEATABLE READ raises error 1020 when a row
// changed after the snapshot, as the other engines' snapshot isolation does,
// and that is a dbms.Serialization.
func testSnapshotIsolation(t *testing.T, ctx context.Context, inst *server.Instance) {
	sep := "?"
	if strings.Contains(inst.URL, "?") {
		sep = "&"
	}
	url := inst.URL + sep + "innodb_snapshot_isolation=ON"
	a, b := open(t, ctx, url), open(t, ctx, url)
	dbmstest.CreateAccounts(t, ctx, a, "snap", 2)
	if err := a.AddPrimaryKey(ctx, "snap", "id"); err != nil {
		t.Fatal(err)
	}
	dbmstest.BeginAll(t, ctx, dbms.RepeatableRead, a, b)
	if _, err := b.QueryInt(ctx, "SELECT bal FROM snap WHERE id = ?", 1); err != nil {
		t.Fatal(err)
	}
	const upd = "UPDATE snap SET bal = bal + 1 WHERE id = ?"
	if _, err := a.ExecArgs(ctx, upd, 1); err != nil {
		t.Fatal(err)
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := b.ExecArgs(ctx, upd, 1)
	if c := dbms.Classify(err); c != dbms.Serialization || !isNumber(err, erCheckRead) {
		t.Errorf("update of a row changed since the snapshot: %v (class %v), want serialization (1020)", err, c)
	}
	if err := b.Rollback(ctx); err != nil {
		t.Errorf("rollback: %v", err)
	}
}

// testSerializableConflict: under SERIALIZABLE InnoDB reads take shared
// locks, so two transactions that read a row and then both update it wait
// for each other: the write-write conflict PostgreSQL reports as a
// serialization failure ends here as a deadlock (1213), dbms.Deadlock.
func testSerializableConflict(t *testing.T, ctx context.Context, inst *server.Instance) {
	a, b := open(t, ctx, inst.URL), open(t, ctx, inst.URL)
	dbmstest.CreateAccounts(t, ctx, a, "serc", 2)
	if err := a.AddPrimaryKey(ctx, "serc", "id"); err != nil {
		t.Fatal(err)
	}
	dbmstest.BeginAll(t, ctx, dbms.Serializable, a, b)
	for _, s := range []*Engine{a, b} {
		if _, err := s.QueryInt(ctx, "SELECT bal FROM serc WHERE id = ?", 1); err != nil {
			t.Fatal(err)
		}
	}
	err := dbmstest.Crossed(t, ctx, a, b, "serc", 1, 1)
	if c := dbms.Classify(err); c != dbms.Deadlock || !isNumber(err, erLockDeadlock) {
		t.Errorf("read, then update by both: %v (class %v), want deadlock (1213)", err, c)
	}
}

// testProtocol: an unprepared ExecArgs is sent as one query with the
// arguments interpolated by the client (no server-side prepare, which would
// cost a second round trip); after Prepare the server executes its prepared
// statement and prepares nothing more.
func testProtocol(t *testing.T, ctx context.Context, inst *server.Instance) {
	e := open(t, ctx, inst.URL)
	dbmstest.CreateAccounts(t, ctx, e, "proto", 2)
	status := func(name string) string {
		t.Helper()
		rows, err := e.QueryRows(ctx, "SHOW SESSION STATUS LIKE '"+name+"'")
		if err != nil || len(rows) != 1 {
			t.Fatalf("%s: %v %v", name, rows, err)
		}
		return rows[0][1]
	}
	const upd = "UPDATE proto SET bal = bal + ? WHERE id = ?"
	prepared := status("Com_stmt_prepare")
	for i := 0; i < 3; i++ {
		if _, err := e.ExecArgs(ctx, upd, int64(1), 1); err != nil {
			t.Fatal(err)
		}
	}
	if got := status("Com_stmt_prepare"); got != prepared {
		t.Errorf("unprepared ExecArgs prepared on the server: Com_stmt_prepare %s -> %s", prepared, got)
	}
	if err := e.Prepare(ctx, upd); err != nil {
		t.Fatal(err)
	}
	prepared, executed := status("Com_stmt_prepare"), status("Com_stmt_execute")
	for i := 0; i < 5; i++ {
		if _, err := e.ExecArgs(ctx, upd, int64(1), 1); err != nil {
			t.Fatal(err)
		}
	}
	if got := status("Com_stmt_prepare"); got != prepared {
		t.Errorf("prepared statement prepared again: Com_stmt_prepare %s -> %s", prepared, got)
	}
	if got := status("Com_stmt_execute"); got == executed {
		t.Errorf("prepared statement not executed as one: Com_stmt_execute stayed %s", got)
	}
}
