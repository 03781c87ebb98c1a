package firebird

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestSessions runs the Transactor, Keys and SizeReporter checks on a
// private server of its own.
func TestSessions(t *testing.T) {
	// The lock manager looks for deadlocks after DeadlockTimeout seconds
	// of waiting, 10 by default: 1 keeps the Deadlock subtests short.
	inst := servertest.Start(t, "firebird", server.Options{Settings: map[string]string{"DeadlockTimeout": "1"}})
	for _, iso := range []dbms.Isolation{dbms.RepeatableRead, dbms.ReadCommitted, dbms.Serializable} {
		t.Run("Transactions/"+iso.String(), func(t *testing.T) {
			dbmstest.CheckTransactions(t, ctxT(t), openURL(t, inst.URL), iso, "tx_acct")
		})
	}
	t.Run("SnapshotConflict", func(t *testing.T) { testSnapshotConflict(t, inst) })
	t.Run("NoWaitConflict", func(t *testing.T) { testNoWaitConflict(t, inst) })
	t.Run("RecordDeadlock", func(t *testing.T) { testRecordDeadlock(t, inst) })
	t.Run("TableDeadlock", func(t *testing.T) { testTableDeadlock(t, inst) })
	t.Run("AutocommitAfterTransaction", func(t *testing.T) { testAutocommitAfter(t, inst) })
	t.Run("Keys", func(t *testing.T) {
		dbmstest.CheckKeys(t, ctxT(t), openURL(t, inst.URL), "k_parent", "k_child", true)
	})
	t.Run("TableBytes", func(t *testing.T) {
		e := openURL(t, inst.URL)
		dbmstest.CheckTableBytes(t, ctxT(t), e, "sized", 1000, nil)
		if _, err := e.TableBytes(ctxT(t), "sized", "no_such_table"); err == nil {
			t.Errorf("TableBytes of a missing table: no error")
		}
	})
}

func TestConstraintName(t *testing.T) {
	for _, tc := range []struct {
		prefix string
		parts  []string
		want   string
	}{
		{"PK", []string{"accounts"}, "PK_ACCOUNTS"},
		{"FK", []string{"tellers", "bid"}, "FK_TELLERS_BID"},
		{"FK", []string{"a_very_long_table_name_x", "branch_id"}, "FK_A_VERY_LONG_TABLE_N_"},
	} {
		got := constraintName(tc.prefix, tc.parts...)
		if len(got) > maxName || !strings.HasPrefix(got, tc.want) {
			t.Errorf("constraintName(%s, %v) = %q, want %q... of at most %d bytes", tc.prefix, tc.parts, got, tc.want, maxName)
		}
	}
	a := constraintName("FK", "a_very_long_table_name_x", "branch_id")
	b := constraintName("FK", "a_very_long_table_name_x", "branch_id2")
	if a == b {
		t.Errorf("two long names both shortened to %q", a)
	}
}

// testSnapshotConflict: under repeatable-read (SNAPSHOT WAIT) b's update of
// a row a has changed waits for a; a commits, and b fails with "update
// conflicts with concurrent update", a dbms.Serialization.
func testSnapshotConflict(t *testing.T, inst *server.Instance) {
	ctx := ctxT(t)
	a, b := openURL(t, inst.URL), openURL(t, inst.URL)
	dbmstest.CreateAccounts(t, ctx, a, "snapc", 2)
	const upd = "UPDATE snapc SET bal = bal + ? WHERE id = ?"
	dbmstest.BeginAll(t, ctx, dbms.RepeatableRead, b, a)
	if _, err := a.ExecArgs(ctx, upd, int64(1), 1); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := b.ExecArgs(ctx, upd, int64(2), 1)
		done <- err
	}()
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	err := <-done
	if c := dbms.Classify(err); c != dbms.Serialization {
		t.Errorf("concurrent update: %v (class %v), want serialization", err, c)
	}
	if err := b.Commit(ctx); dbms.Classify(err) != dbms.Serialization {
		t.Errorf("commit after the conflict: %v, want the conflict again", err)
	}
	if err := b.Rollback(ctx); err != nil {
		t.Errorf("rollback: %v", err)
	}
	if v := dbmstest.Balance(t, ctx, b, "snapc", 1); v != 1 {
		t.Errorf("bal = %d, want 1 (a's commit only)", v)
	}
}

// testNoWaitConflict: under read-committed (NO WAIT) b's update of a row a
// has changed fails at once with an update conflict, a dbms.Serialization;
// once a
// committed, b's next transaction updates the committed row.
func testNoWaitConflict(t *testing.T, inst *server.Instance) {
	ctx := ctxT(t)
	a, b := openURL(t, inst.URL), openURL(t, inst.URL)
	dbmstest.CreateAccounts(t, ctx, a, "nowait", 2)
	const upd = "UPDATE nowait SET bal = bal + ? WHERE id = ?"
	err := dbmstest.Collide(t, ctx, a, b, dbms.ReadCommitted, upd)
	if c := dbms.Classify(err); c != dbms.Serialization {
		t.Errorf("update of a row locked by a: %v (class %v), want serialization", err, c)
	}
	if err := b.Rollback(ctx); err != nil {
		t.Errorf("rollback: %v", err)
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Begin(ctx, dbms.ReadCommitted); err != nil {
		t.Fatal(err)
	}
	if _, err := b.ExecArgs(ctx, upd, int64(2), 1); err != nil {
		t.Errorf("update after a committed: %v", err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if v := dbmstest.Balance(t, ctx, a, "nowait", 1); v != 3 {
		t.Errorf("bal = %d, want 3", v)
	}
}

// testAutocommitAfter: after a SNAPSHOT transaction the session's
// statements outside a transaction see other sessions' commits.
func testAutocommitAfter(t *testing.T, inst *server.Instance) {
	ctx := ctxT(t)
	a, b := openURL(t, inst.URL), openURL(t, inst.URL)
	dbmstest.CreateAccounts(t, ctx, a, "autoc", 2)
	const sel = "SELECT bal FROM autoc WHERE id = ?"
	want := int64(0)
	for _, iso := range []dbms.Isolation{dbms.RepeatableRead, dbms.Serializable, dbms.ReadCommitted} {
		if err := b.Begin(ctx, iso); err != nil {
			t.Fatal(err)
		}
		if _, err := b.QueryInt(ctx, sel, 1); err != nil {
			t.Fatal(err)
		}
		if err := b.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if v, err := b.QueryInt(ctx, sel, 1); err != nil || v != want {
			t.Fatalf("%s: read outside a transaction: %d, %v; want %d", iso, v, err, want)
		}
		wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		_, err := a.ExecArgs(wctx, "UPDATE autoc SET bal = bal + 1 WHERE id = ?", 1)
		cancel()
		if err != nil {
			t.Fatalf("%s: another session's update: %v", iso, err)
		}
		want++
		if v, err := b.QueryInt(ctx, sel, 1); err != nil || v != want {
			t.Errorf("%s: read outside a transaction after another session's commit: %d, %v; want %d", iso, v, err, want)
		}
		if got, err := b.QueryValue(ctx, "SELECT bal FROM autoc WHERE id = 1"); err != nil || got != dbmstest.Itoa(want) {
			t.Errorf("%s: QueryValue: %s, %v; want %d", iso, got, err, want)
		}
	}
}

// testRecordDeadlock: a and b update rows 1 and 2, then each wants the
// other's. Firebird 3 ends one of them with the very status vector of an
// update conflict (deadlock, update conflicts with concurrent update,
// concurrent transaction), so a deadlock over records cannot be told from
// a concurrent update and counts as a dbms.Serialization
// (docs/retries.md). (The adapter's read-committed is NO WAIT: there the
// second update fails at once, the same way, and nothing waits.)
func testRecordDeadlock(t *testing.T, inst *server.Instance) {
	ctx := ctxT(t)
	a, b := openURL(t, inst.URL), openURL(t, inst.URL)
	dbmstest.CreateAccounts(t, ctx, a, "deadr", 2)
	err := dbmstest.Deadlock(t, ctx, a, b, dbms.RepeatableRead, "deadr")
	codes := gdsCodes(err)
	if c := dbms.Classify(err); c != dbms.Serialization || !hasCode(codes, gdsDeadlock) || !hasCode(codes, gdsUpdateConflict) {
		t.Errorf("deadlock over records: %v (class %v, codes %v), want serialization with codes deadlock and update conflict", err, c, codes)
	}
}

// testTableDeadlock: SNAPSHOT TABLE STABILITY (isc_tpb_consistency)
// reserves each table a transaction touches; a takes table 1 and b table
// 2, then each wants the other's. The lock manager ends one of them with
// a deadlock that names no record ("Acquire lock for relation failed"):
// a dbms.Deadlock.
func testTableDeadlock(t *testing.T, inst *server.Instance) {
	ctx := ctxT(t)
	a, b := openURL(t, inst.URL), openURL(t, inst.URL)
	for _, table := range []string{"DEADT1", "DEADT2"} {
		dbmstest.CreateAccounts(t, ctx, a, table, 1)
	}
	stable := &sql.TxOptions{Isolation: sql.LevelSerializable} // the driver's TABLE STABILITY WAIT
	txA, err := a.Conn.BeginTx(ctx, stable)
	if err != nil {
		t.Fatal(err)
	}
	defer txA.Rollback()
	txB, err := b.Conn.BeginTx(ctx, stable)
	if err != nil {
		t.Fatal(err)
	}
	defer txB.Rollback()
	const upd = "UPDATE %s SET bal = bal + 1 WHERE id = 1"
	if _, err := txA.ExecContext(ctx, fmt.Sprintf(upd, "DEADT1")); err != nil {
		t.Fatal(err)
	}
	if _, err := txB.ExecContext(ctx, fmt.Sprintf(upd, "DEADT2")); err != nil {
		t.Fatal(err)
	}
	// As dbmstest.Crossed does: a victim rolls back at once, on its own
	// goroutine, so that the survivor's wait ends.
	cross := func(tx *sql.Tx, table string, out chan<- error) {
		_, err := tx.ExecContext(ctx, fmt.Sprintf(upd, table))
		if err != nil {
			tx.Rollback()
		} else {
			tx.Commit()
		}
		out <- classify(err)
	}
	errA, errB := make(chan error, 1), make(chan error, 1)
	go cross(txA, "DEADT2", errA)
	go cross(txB, "DEADT1", errB)
	ea, eb := <-errA, <-errB
	if (ea == nil) == (eb == nil) {
		t.Fatalf("table deadlock: a %v, b %v; want exactly one of them ended", ea, eb)
	}
	err = errors.Join(ea, eb)
	codes := gdsCodes(err)
	if c := dbms.Classify(err); c != dbms.Deadlock || !hasCode(codes, gdsDeadlock) || hasCode(codes, gdsUpdateConflict) {
		t.Errorf("table deadlock: %v (class %v, codes %v), want deadlock without an update conflict", err, c, codes)
	}
}
