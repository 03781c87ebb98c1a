package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// directPair opens two sessions on one new file: one with the fast path of
// prepared statements (dbms.SQLBase.DirectStmts, the adapter's default),
// one through database/sql only.
func directPair(t *testing.T) (direct, general *Engine) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.db")
	direct, general = openSession(t, "sqlite:"+path), openSession(t, "sqlite:"+path)
	if !direct.DirectStmts {
		t.Fatal("the SQLite adapter does not set DirectStmts")
	}
	general.DirectStmts = false
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE d (id INTEGER PRIMARY KEY, n INTEGER, s TEXT, f REAL, z INTEGER, big INTEGER)",
		"INSERT INTO d VALUES (1, 7, '42', 2.0, NULL, 9000000000), (2, 300, 'x', 2.5, NULL, -1), (3, -5, '9', 1e3, 1, 0)",
	} {
		if _, err := direct.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	return direct, general
}

// TestDirectQueryInt: prepared QueryInt answers on the fast path exactly
// as through database/sql: values of every column type, ints of every
// width as arguments, no row, NULL, text that is no number, a row of two
// columns, a wrong number of arguments, an argument type left to the
// general path.
func TestDirectQueryInt(t *testing.T) {
	ctx := context.Background()
	direct, general := directPair(t)
	for _, c := range []struct {
		q    string
		args []any
	}{
		{"SELECT n FROM d WHERE id = ?", []any{int64(1)}},
		{"SELECT n FROM d WHERE id = ?", []any{2}},
		{"SELECT n FROM d WHERE id = ?", []any{int32(3)}},
		{"SELECT n FROM d WHERE id = ?", []any{int64(99)}},
		{"SELECT n FROM d WHERE id = ?", []any{uint8(2)}},
		{"SELECT n FROM d WHERE id = ?", []any{}},
		{"SELECT n FROM d WHERE id = ?", []any{int64(1), int64(2)}},
		{"SELECT big FROM d WHERE id = ?", []any{int64(1)}},
		{"SELECT s FROM d WHERE id = ?", []any{int64(1)}},
		{"SELECT s FROM d WHERE id = ?", []any{int64(2)}},
		{"SELECT f FROM d WHERE id = ?", []any{int64(1)}},
		{"SELECT f FROM d WHERE id = ?", []any{int64(2)}},
		{"SELECT z FROM d WHERE id = ?", []any{int64(1)}},
		{"SELECT n, s FROM d WHERE id = ?", []any{int64(1)}},
		{"SELECT n FROM d WHERE s = ?", []any{"x"}},
		{"SELECT n FROM d WHERE f > ? ORDER BY id", []any{1.5}},
		{"SELECT COUNT(*) FROM d WHERE id > ? AND s <> ?", []any{0, "9"}},
		{"SELECT n FROM d ORDER BY id DESC", nil},
		{"SELECT n FROM d WHERE id = ? OR ? IS NULL", []any{int64(5), nil}},
	} {
		for _, e := range []*Engine{direct, general} {
			if err := e.Prepare(ctx, c.q); err != nil {
				t.Fatal(err)
			}
		}
		// Twice: the second call reuses the fast path's buffers.
		for range 2 {
			v, err := direct.QueryInt(ctx, c.q, c.args...)
			wv, werr := general.QueryInt(ctx, c.q, c.args...)
			if v != wv || fmt.Sprint(err) != fmt.Sprint(werr) || errors.Is(err, dbms.ErrNoRows) != errors.Is(werr, dbms.ErrNoRows) {
				t.Errorf("%s %v: fast path %d, %v; database/sql %d, %v", c.q, c.args, v, err, wv, werr)
			}
		}
	}
}

// TestDirectExecArgs: prepared ExecArgs on the fast path affects the rows
// database/sql's path does, stores every argument type the same way, and
// fails the same way, failing the open transaction too.
func TestDirectExecArgs(t *testing.T) {
	ctx := context.Background()
	direct, general := directPair(t)
	const (
		ins = "INSERT INTO d (id, n, s, f, z, big) VALUES (?, ?, ?, ?, ?, ?)"
		upd = "UPDATE d SET n = n + ? WHERE id < ?"
	)
	for _, e := range []*Engine{direct, general} {
		for _, q := range []string{ins, upd} {
			if err := e.Prepare(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, e := range []*Engine{direct, general} {
		id := int64(10 + i)
		if n, err := e.ExecArgs(ctx, ins, id, 1, "text", 0.5, nil, []byte("77")); n != 1 || err != nil {
			t.Fatalf("insert: %d, %v", n, err)
		}
	}
	for _, col := range []string{"n", "s", "f", "z IS NULL", "big", "typeof(s) || typeof(big)"} {
		rows, err := direct.QueryRows(ctx, "SELECT "+col+" FROM d WHERE id IN (10, 11) ORDER BY id")
		if err != nil || len(rows) != 2 || rows[0][0] != rows[1][0] {
			t.Errorf("%s stored by the fast path and by database/sql: %v, %v", col, rows, err)
		}
	}
	n, err := direct.ExecArgs(ctx, upd, 1, 3)
	wn, werr := general.ExecArgs(ctx, upd, 1, 3)
	if n != 2 || n != wn || err != nil || werr != nil {
		t.Errorf("update: fast path %d rows, %v; database/sql %d rows, %v", n, err, wn, werr)
	}

	// A duplicate key inside a transaction: the same error, remembered by
	// Commit, which rolls back.
	for _, e := range []*Engine{direct, general} {
		if err := e.Begin(ctx, dbms.RepeatableRead); err != nil {
			t.Fatal(err)
		}
	}
	_, err = direct.ExecArgs(ctx, ins, int64(1), 0, "", 0.0, nil, nil)
	if err := direct.Commit(ctx); err == nil {
		t.Errorf("commit after a failed statement on the fast path: no error")
	}
	_, werr = general.ExecArgs(ctx, ins, int64(1), 0, "", 0.0, nil, nil)
	general.Rollback(ctx)
	if err == nil || fmt.Sprint(err) != fmt.Sprint(werr) || dbms.Classify(err) != dbms.Classify(werr) {
		t.Errorf("duplicate key: fast path %v (%v), database/sql %v (%v)", err, dbms.Classify(err), werr, dbms.Classify(werr))
	}
}

// TestDirectCancelled: a context that has ended stops a call on the fast
// path (a prepared QueryInt or ExecArgs, BEGIN) before it runs, although
// the adapter hands go-sqlite3 a context it does not watch (Unwatched).
// Through database/sql only the query is sure to stop: go-sqlite3 runs an
// Exec on a goroutine and returns its result when that ends before it
// notices the context.
func TestDirectCancelled(t *testing.T) {
	direct, general := directPair(t)
	if !direct.Unwatched {
		t.Fatal("the SQLite adapter does not set Unwatched")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	const (
		sel = "SELECT n FROM d WHERE id = ?"
		upd = "UPDATE d SET n = n + 1 WHERE id = ?"
	)
	for _, e := range []*Engine{direct, general} {
		if err := e.Prepare(context.Background(), sel); err != nil {
			t.Fatal(err)
		}
		if _, err := e.QueryInt(ctx, sel, int64(1)); !errors.Is(err, context.Canceled) {
			t.Errorf("QueryInt on a cancelled context: %v", err)
		}
	}
	if err := direct.Prepare(context.Background(), upd); err != nil {
		t.Fatal(err)
	}
	if _, err := direct.ExecArgs(ctx, upd, int64(1)); !errors.Is(err, context.Canceled) {
		t.Errorf("ExecArgs on a cancelled context: %v", err)
	}
	if err := direct.Begin(ctx, dbms.RepeatableRead); !errors.Is(err, context.Canceled) || direct.InTransaction() {
		t.Errorf("Begin on a cancelled context: %v (in a transaction: %v)", err, direct.InTransaction())
	}
	if v, err := direct.QueryInt(context.Background(), sel, int64(1)); v != 7 || err != nil {
		t.Errorf("n = %d, %v after the cancelled update, want 7", v, err)
	}
}

// TestDirectAllocations: a prepared QueryInt or ExecArgs on the fast path
// allocates nothing beyond what go-sqlite3's own statement call allocates
// (its Rows, its Result), measured alongside by calling the driver
// statement directly with a context that cannot be cancelled; the fast path
// is given one that can, as the load driver's, and must not watch it (no
// AfterFunc, no goroutine per statement). A whole transaction (BEGIN, an
// update, a select, COMMIT) costs no more with that context than without.
func TestDirectAllocations(t *testing.T) {
	bg := context.Background()
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	direct, general := directPair(t)
	const (
		sel = "SELECT n FROM d WHERE id = ?"
		upd = "UPDATE d SET n = n WHERE id = ?"
	)
	for _, e := range []*Engine{direct, general} {
		for _, q := range []string{sel, upd} {
			if err := e.Prepare(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
	}
	args := []any{int64(1)} // boxed once: the caller's cost, not the call's
	check := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	query := func(e *Engine) func() {
		return func() { _, err := e.QueryInt(ctx, sel, args...); check(err) }
	}
	exec := func(e *Engine) func() {
		return func() { _, err := e.ExecArgs(ctx, upd, args...); check(err) }
	}
	transaction := func(e *Engine, ctx context.Context) func() {
		return func() {
			check(e.Begin(ctx, dbms.RepeatableRead))
			_, err := e.ExecArgs(ctx, upd, args...)
			check(err)
			_, err = e.QueryInt(ctx, sel, args...)
			check(err)
			check(e.Commit(ctx))
		}
	}

	// The driver's own cost: its statements called directly.
	stmts := map[string]driver.Stmt{}
	for _, q := range []string{sel, upd} {
		direct.Conn.Raw(func(dc any) error {
			ds, err := dc.(driver.ConnPrepareContext).PrepareContext(bg, q)
			stmts[q] = ds
			return err
		})
		defer direct.Conn.Raw(func(any) error { return stmts[q].Close() })
	}
	nv := []driver.NamedValue{{Ordinal: 1, Value: args[0]}}
	dest := make([]driver.Value, 1)
	driverQuery := minAllocs(1000, func() {
		direct.Conn.Raw(func(any) error {
			rows, err := stmts[sel].(driver.StmtQueryContext).QueryContext(bg, nv)
			check(err)
			rows.Columns()
			rows.Next(dest)
			return rows.Close()
		})
	})
	driverExec := minAllocs(1000, func() {
		direct.Conn.Raw(func(any) error {
			res, err := stmts[upd].(driver.StmtExecContext).ExecContext(bg, nv)
			check(err)
			res.RowsAffected()
			return nil
		})
	})
	dq, gq := minAllocs(1000, query(direct)), minAllocs(1000, query(general))
	de, ge := minAllocs(1000, exec(direct)), minAllocs(1000, exec(general))
	dt, dtbg := minAllocs(1000, transaction(direct, ctx)), minAllocs(1000, transaction(direct, bg))
	gt := minAllocs(1000, transaction(general, ctx))
	t.Logf("allocations per call: QueryInt %.0f on the fast path (go-sqlite3's own %.0f), %.0f through database/sql; "+
		"ExecArgs %.0f (%.0f), %.0f; transaction %.0f (%.0f with a context that cannot end), %.0f",
		dq, driverQuery, gq, de, driverExec, ge, dt, dtbg, gt)
	if dq > driverQuery || de > driverExec {
		t.Errorf("the fast path allocates beyond go-sqlite3's statement: QueryInt %.0f (driver %.0f), ExecArgs %.0f (driver %.0f)", dq, driverQuery, de, driverExec)
	}
	if dt > dtbg {
		t.Errorf("a transaction on the fast path costs %.0f allocations with a context that can end, %.0f without: the context is watched", dt, dtbg)
	}
}

// BenchmarkQueryInt: a prepared point select, on the fast path and through
// database/sql, with a context that cannot be cancelled (no watch) and one
// that can (go-sqlite3 and database/sql watch it per call).
func BenchmarkQueryInt(b *testing.B) {
	path := filepath.Join(b.TempDir(), "s.db")
	bg := context.Background()
	open := func() *Engine {
		e, err := dbms.Open(bg, "sqlite:"+path)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { e.Close() })
		return e.(*Engine)
	}
	direct, general := open(), open()
	general.DirectStmts = false
	cancellable, cancel := context.WithCancel(bg)
	defer cancel()
	for _, s := range []string{
		"CREATE TABLE d (id INTEGER PRIMARY KEY, n INTEGER)",
		"WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 1000) INSERT INTO d SELECT i, 2 * i FROM c",
	} {
		if _, err := direct.Exec(bg, s); err != nil {
			b.Fatal(err)
		}
	}
	const q = "SELECT n FROM d WHERE id = ?"
	for _, e := range []*Engine{direct, general} {
		if err := e.Prepare(bg, q); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		e    *Engine
		ctx  context.Context
	}{
		{"direct", direct, bg}, {"direct-cancellable", direct, cancellable},
		{"database-sql", general, bg}, {"database-sql-cancellable", general, cancellable},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := c.e.QueryInt(c.ctx, q, int64(1+i%1000)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// minAllocs is the least of three testing.AllocsPerRun(runs, f): the
// runtime allocates now and then beside the calls measured (running the
// drivers' cleanups after a collection), which only ever adds.
func minAllocs(runs int, f func()) float64 {
	m := testing.AllocsPerRun(runs, f)
	for range 2 {
		m = min(m, testing.AllocsPerRun(runs, f))
	}
	return m
}
