// Package dbmstest holds the checks every engine adapter's tests run against
// their real engine, so that the five adapters are held to one contract.
// Engine-specific behaviour (how a write-write conflict shows) stays in the
// adapters' own tests.
package dbmstest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Session is an engine session that runs transactions.
type Session interface {
	dbms.Engine
	dbms.Transactor
}

// AccountTable is a small TPC-B-like table: id, bal.
func AccountTable(name string) dbms.Table {
	return dbms.Table{Name: name, Columns: []dbms.Column{
		{Name: "id", Type: dbms.Int},
		{Name: "bal", Type: dbms.BigInt},
	}}
}

// CreateAccounts (re)creates table with rows id 1..n, bal 0.
func CreateAccounts(t *testing.T, ctx context.Context, e Session, table string, n int) {
	t.Helper()
	if err := e.DropTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	if err := e.CreateTable(ctx, AccountTable(table)); err != nil {
		t.Fatal(err)
	}
	ins := fmt.Sprintf("INSERT INTO %s (id, bal) VALUES (?, ?)", table)
	for i := 1; i <= n; i++ {
		if got, err := e.ExecArgs(ctx, ins, i, int64(0)); err != nil || got != 1 {
			t.Fatalf("%s (%d): %d rows, %v", ins, i, got, err)
		}
	}
}

// Balance reads the balance of account id outside any transaction.
func Balance(t *testing.T, ctx context.Context, e Session, table string, id int) int64 {
	t.Helper()
	v, err := e.QueryInt(ctx, fmt.Sprintf("SELECT bal FROM %s WHERE id = ?", table), id)
	if err != nil {
		t.Fatalf("balance of %d: %v", id, err)
	}
	return v
}

// CheckTransactions runs the Transactor contract on e at iso: commit and
// rollback, rows affected, QueryInt and ErrNoRows, prepared statements over
// many transactions, and misuse.
func CheckTransactions(t *testing.T, ctx context.Context, e Session, iso dbms.Isolation, table string) {
	t.Helper()
	CreateAccounts(t, ctx, e, table, 10)
	upd := fmt.Sprintf("UPDATE %s SET bal = bal + ? WHERE id = ?", table)
	sel := fmt.Sprintf("SELECT bal FROM %s WHERE id = ?", table)

	mustBegin(t, ctx, e, iso)
	if n, err := e.ExecArgs(ctx, upd, int64(5), 1); err != nil || n != 1 {
		t.Fatalf("update in transaction: %d rows, %v", n, err)
	}
	if v, err := e.QueryInt(ctx, sel, 1); err != nil || v != 5 {
		t.Fatalf("read own write: %d, %v; want 5", v, err)
	}
	if err := e.Commit(ctx); err != nil {
		t.Fatalf("commit: %v", err)
	}
	if v := Balance(t, ctx, e, table, 1); v != 5 {
		t.Fatalf("after commit bal = %d, want 5", v)
	}

	mustBegin(t, ctx, e, iso)
	if _, err := e.ExecArgs(ctx, upd, int64(100), 1); err != nil {
		t.Fatal(err)
	}
	if v, _ := e.QueryInt(ctx, sel, 1); v != 105 {
		t.Errorf("inside the transaction bal = %d, want 105", v)
	}
	if err := e.Rollback(ctx); err != nil {
		t.Fatalf("rollback: %v", err)
	}
	if v := Balance(t, ctx, e, table, 1); v != 5 {
		t.Fatalf("after rollback bal = %d, want 5 (the change must be gone)", v)
	}
	if err := e.Rollback(ctx); err != nil {
		t.Errorf("rollback without a transaction: %v", err)
	}
	if err := e.Commit(ctx); err == nil {
		t.Errorf("commit without a transaction: no error")
	}

	// Rows affected, outside a transaction.
	if n, err := e.ExecArgs(ctx, fmt.Sprintf("UPDATE %s SET bal = bal + 1 WHERE id > ?", table), 3); err != nil || n != 7 {
		t.Errorf("update of ids > 3: %d rows, %v; want 7", n, err)
	}
	if n, err := e.ExecArgs(ctx, upd, int64(1), 999); err != nil || n != 0 {
		t.Errorf("update of a missing id: %d rows, %v; want 0", n, err)
	}
	if v, err := e.QueryInt(ctx, fmt.Sprintf("SELECT COUNT(*) FROM %s WHERE id > ? AND bal = ?", table), 3, int64(1)); err != nil || v != 7 {
		t.Errorf("count with two arguments: %d, %v; want 7", v, err)
	}
	if _, err := e.QueryInt(ctx, sel, 999); !errors.Is(err, dbms.ErrNoRows) {
		t.Errorf("QueryInt of a missing row: %v, want ErrNoRows", err)
	}

	// Prepared statements serve many transactions.
	for _, s := range []string{upd, sel, upd} {
		if err := e.Prepare(ctx, s); err != nil {
			t.Fatalf("prepare %s: %v", s, err)
		}
	}
	const runs = 50
	for i := 0; i < runs; i++ {
		mustBegin(t, ctx, e, iso)
		if n, err := e.ExecArgs(ctx, upd, int64(2), 2); err != nil || n != 1 {
			t.Fatalf("prepared update %d: %d rows, %v", i, n, err)
		}
		if v, err := e.QueryInt(ctx, sel, 2); err != nil || v != int64(2*(i+1)) {
			t.Fatalf("prepared select %d: %d, %v; want %d", i, v, err, 2*(i+1))
		}
		if err := e.Commit(ctx); err != nil {
			t.Fatalf("commit %d: %v", i, err)
		}
	}
	if _, err := e.QueryInt(ctx, sel, 999); !errors.Is(err, dbms.ErrNoRows) {
		t.Errorf("prepared QueryInt of a missing row: %v, want ErrNoRows", err)
	}
	// A prepared statement also runs outside a transaction.
	if n, err := e.ExecArgs(ctx, upd, int64(1), 2); err != nil || n != 1 {
		t.Errorf("prepared update outside a transaction: %d rows, %v", n, err)
	}
	if v := Balance(t, ctx, e, table, 2); v != 2*runs+1 {
		t.Errorf("bal after %d prepared transactions = %d, want %d", runs, v, 2*runs+1)
	}

	// A failed statement fails the transaction: Commit rolls back and says
	// so (some engines have rolled back already), and the session goes on.
	mustBegin(t, ctx, e, iso)
	if _, err := e.ExecArgs(ctx, upd, int64(7), 3); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ExecArgs(ctx, "UPDATE no_such_table SET bal = 1 WHERE id = ?", 1); err == nil {
		t.Errorf("update of a missing table: no error")
	}
	if err := e.Commit(ctx); err == nil {
		t.Errorf("commit after a failed statement: no error")
	}
	if err := e.Rollback(ctx); err != nil {
		t.Errorf("rollback after the failed commit: %v", err)
	}
	if v := Balance(t, ctx, e, table, 3); v != 0 {
		t.Errorf("bal of 3 = %d, want 0: the failed transaction's update must be gone", v)
	}
	mustBegin(t, ctx, e, iso)
	if _, err := e.ExecArgs(ctx, "UPDATE no_such_table SET bal = 1 WHERE id = ?", 1); err == nil {
		t.Errorf("update of a missing table: no error")
	}
	if err := e.Rollback(ctx); err != nil {
		t.Errorf("rollback after a failed statement: %v", err)
	}
	mustBegin(t, ctx, e, iso)
	if err := e.Commit(ctx); err != nil {
		t.Errorf("empty transaction after failed ones: %v", err)
	}
}

func mustBegin(t *testing.T, ctx context.Context, e Session, iso dbms.Isolation) {
	t.Helper()
	if err := e.Begin(ctx, iso); err != nil {
		t.Fatalf("begin %s: %v", iso, err)
	}
}

// KeySession is an engine session that adds keys.
type KeySession interface {
	Session
	dbms.Keys
}

// CheckKeys adds a primary key to parent (an account table) and checks it
// refuses a duplicate, adds a two-column primary key to child (id, pid),
// then a foreign key from child.pid to parent.id: enforced when fk is true,
// else refused with ErrNotSupported.
func CheckKeys(t *testing.T, ctx context.Context, e KeySession, parent, child string, fk bool) {
	t.Helper()
	CreateAccounts(t, ctx, e, parent, 3)
	e.DropTable(ctx, child)
	if err := e.CreateTable(ctx, dbms.Table{Name: child, Columns: []dbms.Column{{Name: "id", Type: dbms.Int}, {Name: "pid", Type: dbms.Int}}}); err != nil {
		t.Fatal(err)
	}
	insChild := fmt.Sprintf("INSERT INTO %s (id, pid) VALUES (?, ?)", child)
	for i := 1; i <= 3; i++ {
		if _, err := e.ExecArgs(ctx, insChild, i, i); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.AddPrimaryKey(ctx, parent, "id"); err != nil {
		t.Fatalf("AddPrimaryKey(%s): %v", parent, err)
	}
	if _, err := e.ExecArgs(ctx, fmt.Sprintf("INSERT INTO %s (id, bal) VALUES (?, ?)", parent), 2, int64(0)); err == nil {
		t.Errorf("duplicate key inserted into %s after its primary key was added", parent)
	}
	if err := e.AddPrimaryKey(ctx, child, "id", "pid"); err != nil {
		t.Fatalf("AddPrimaryKey(%s, id, pid): %v", child, err)
	}
	if _, err := e.ExecArgs(ctx, insChild, 1, 1); err == nil {
		t.Errorf("duplicate two-column key inserted into %s", child)
	}
	err := e.AddForeignKey(ctx, child, "pid", parent, "id")
	if !fk {
		if !errors.Is(err, dbms.ErrNotSupported) || dbms.Classify(err) != dbms.Unsupported {
			t.Errorf("AddForeignKey: %v (class %v), want ErrNotSupported", err, dbms.Classify(err))
		}
		return
	}
	if err != nil {
		t.Fatalf("AddForeignKey: %v", err)
	}
	if _, err := e.ExecArgs(ctx, insChild, 9, 42); err == nil {
		t.Errorf("row referencing a missing parent inserted after the foreign key was added")
	}
	if _, err := e.ExecArgs(ctx, insChild, 9, 3); err != nil {
		t.Errorf("row referencing parent 3: %v", err)
	}
}

// SizeSession is an engine session that reports table sizes.
type SizeSession interface {
	Session
	dbms.SizeReporter
}

// FillerTable is a table with a wide column, so that rows take space.
func FillerTable(name string) dbms.Table {
	return dbms.Table{Name: name, Columns: []dbms.Column{
		{Name: "id", Type: dbms.Int},
		{Name: "filler", Type: dbms.Char, Len: 100},
	}}
}

// CheckTableBytes creates table (FillerTable), inserts rows, and checks
// TableBytes is positive, then grows when three times as many rows more are
// inserted (the margin covers engines that allocate in large steps). fill,
// when not nil, inserts rows from..from+n-1 in the engine's own fastest
// way; by default one transaction of prepared inserts does, with a filler
// text that differs from row to row.
func CheckTableBytes(t *testing.T, ctx context.Context, e SizeSession, table string, rows int, fill func(ctx context.Context, from, n int) error) {
	t.Helper()
	e.DropTable(ctx, table)
	if err := e.CreateTable(ctx, FillerTable(table)); err != nil {
		t.Fatal(err)
	}
	insert := func(from, rows int) {
		t.Helper()
		if fill != nil {
			if err := fill(ctx, from, rows); err != nil {
				t.Fatal(err)
			}
			return
		}
		ins := fmt.Sprintf("INSERT INTO %s (id, filler) VALUES (?, ?)", table)
		if err := e.Prepare(ctx, ins); err != nil {
			t.Fatal(err)
		}
		mustBegin(t, ctx, e, dbms.ReadCommitted)
		for i := from; i < from+rows; i++ {
			if _, err := e.ExecArgs(ctx, ins, i, filler(i)); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	insert(0, rows)
	first, err := e.TableBytes(ctx, table)
	if err != nil || first <= 0 {
		t.Fatalf("TableBytes after %d rows = %d, %v; want > 0", rows, first, err)
	}
	insert(rows, 3*rows)
	second, err := e.TableBytes(ctx, table)
	if err != nil || second <= first {
		t.Errorf("TableBytes after %d more rows = %d, %v; want more than %d", 3*rows, second, err, first)
	}
}

// filler is 100 characters that differ from row to row.
func filler(i int) string {
	x := uint64(i)*0x9E3779B97F4A7C15 + 1
	s := make([]byte, 100)
	for j := range s {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		s[j] = 'a' + byte(x%26)
	}
	return string(s)
}

// Itoa renders n as QueryRows does.
func Itoa(n int64) string { return fmt.Sprint(n) }

// Collide begins a transaction at iso on a and on b, updates row 1 through
// upd (an "UPDATE ... SET bal = bal + ? WHERE id = ?") on a, then on b, and
// returns b's error: the write-write collision each engine answers its own
// way (conflict, lock wait, busy).
func Collide(t *testing.T, ctx context.Context, a, b Session, iso dbms.Isolation, upd string) error {
	t.Helper()
	mustBegin(t, ctx, a, iso)
	mustBegin(t, ctx, b, iso)
	if _, err := a.ExecArgs(ctx, upd, int64(1), 1); err != nil {
		t.Fatal(err)
	}
	_, err := b.ExecArgs(ctx, upd, int64(2), 1)
	return err
}

// BeginAll begins a transaction at iso on every session.
func BeginAll(t *testing.T, ctx context.Context, iso dbms.Isolation, sessions ...Session) {
	t.Helper()
	for _, s := range sessions {
		mustBegin(t, ctx, s, iso)
	}
}

// CheckReconnect checks that Reconnect gives e a new session of the
// server: idQuery (the engine's own session number) answers differently
// after it. database/sql hands a closed connection back to its pool, so
// a careless Reconnect gets the same session again.
func CheckReconnect(t *testing.T, ctx context.Context, e Session, idQuery string) {
	t.Helper()
	rc, ok := e.(dbms.Reconnecter)
	if !ok {
		t.Fatalf("%s sessions cannot reconnect", e.Name())
	}
	before, err := e.QueryInt(ctx, idQuery)
	if err != nil {
		t.Fatalf("%s: %v", idQuery, err)
	}
	if err := rc.Reconnect(ctx); err != nil {
		t.Fatal(err)
	}
	after, err := e.QueryInt(ctx, idQuery)
	if err != nil {
		t.Fatalf("%s after Reconnect: %v", idQuery, err)
	}
	if after == before {
		t.Errorf("%s: %d before and after Reconnect: want a new session", idQuery, before)
	}
}
