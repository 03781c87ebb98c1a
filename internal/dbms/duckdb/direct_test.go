package duckdb

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// directPair opens two sessions on one new file: one with the fast path of
// prepared statements (dbms.SQLBase.DirectStmts, the adapter's default),
// one through database/sql only.
func directPair(t *testing.T) (direct, general *Engine) {
	t.Helper()
	direct, path := openFile(t)
	general = openURL(t, "duckdb:"+path)
	if !direct.DirectStmts {
		t.Fatal("the DuckDB adapter does not set DirectStmts")
	}
	general.DirectStmts = false
	mustExec(t, direct, "CREATE TABLE d (id INTEGER PRIMARY KEY, n INTEGER, b BIGINT, h HUGEINT, s VARCHAR, f DOUBLE, z INTEGER, m DECIMAL(9,2))")
	mustExec(t, direct, "INSERT INTO d VALUES (1, 7, 9000000000, 12, '42', 2.0, NULL, 1.5), (2, 300, -1, 0, 'x', 2.5, NULL, 2), (3, -5, 0, -3, '9', 1e3, 1, 0)")
	return direct, general
}

// TestDirectQueryInt: prepared QueryInt answers on the fast path exactly
// as through database/sql, for DuckDB's value types (INTEGER as int32,
// HUGEINT as *big.Int, DECIMAL), no row, NULL, two columns, a wrong number
// of arguments and an argument type left to the general path.
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
		{"SELECT b FROM d WHERE id = ?", []any{int64(1)}},
		{"SELECT h FROM d WHERE id = ?", []any{int64(1)}},
		{"SELECT sum(b) FROM d WHERE id > ?", []any{int64(0)}},
		{"SELECT s FROM d WHERE id = ?", []any{int64(1)}},
		{"SELECT s FROM d WHERE id = ?", []any{int64(2)}},
		{"SELECT f FROM d WHERE id = ?", []any{int64(1)}},
		{"SELECT f FROM d WHERE id = ?", []any{int64(2)}},
		{"SELECT m FROM d WHERE id = ?", []any{int64(2)}},
		{"SELECT z FROM d WHERE id = ?", []any{int64(1)}},
		{"SELECT n, s FROM d WHERE id = ?", []any{int64(1)}},
		{"SELECT n FROM d WHERE s = ?", []any{"x"}},
		{"SELECT count(*) FROM d WHERE id > ? AND s <> ?", []any{0, "9"}},
		{"SELECT n FROM d ORDER BY id DESC", nil},
	} {
		for _, e := range []*Engine{direct, general} {
			if err := e.Prepare(ctx, c.q); err != nil {
				t.Fatal(err)
			}
		}
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
// database/sql's path does, and a conflict fails the transaction the same
// way (Commit rolls back and reports it).
func TestDirectExecArgs(t *testing.T) {
	ctx := context.Background()
	direct, general := directPair(t)
	const upd = "UPDATE d SET n = n + ? WHERE id < ?"
	for _, e := range []*Engine{direct, general} {
		if err := e.Prepare(ctx, upd); err != nil {
			t.Fatal(err)
		}
	}
	n, err := direct.ExecArgs(ctx, upd, 1, int64(3))
	wn, werr := general.ExecArgs(ctx, upd, 1, int64(3))
	if n != 2 || n != wn || err != nil || werr != nil {
		t.Errorf("update: fast path %d rows, %v; database/sql %d rows, %v", n, err, wn, werr)
	}
	if v := mustValue(t, direct, "SELECT n FROM d WHERE id = 1"); v != "9" {
		t.Errorf("n = %s after two updates of 1, want 9", v)
	}

	for _, e := range []*Engine{direct, general} {
		if err := e.Begin(ctx, dbms.RepeatableRead); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := general.ExecArgs(ctx, upd, 1, int64(2)); err != nil {
		t.Fatal(err)
	}
	_, err = direct.ExecArgs(ctx, upd, 1, int64(2))
	if dbms.Classify(err) != dbms.Conflict {
		t.Errorf("update of a row another transaction changed, on the fast path: %v (class %v), want conflict", err, dbms.Classify(err))
	}
	if err := direct.Commit(ctx); dbms.Classify(err) != dbms.Conflict {
		t.Errorf("commit after the conflict: %v, want the conflict", err)
	}
	if err := general.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestDirectAllocations: a prepared QueryInt or ExecArgs on the fast path
// allocates nothing beyond what duckdb-go's own statement call allocates,
// measured alongside by calling the driver statement directly.
func TestDirectAllocations(t *testing.T) {
	ctx := context.Background()
	direct, general := directPair(t)
	const (
		sel = "SELECT b FROM d WHERE id = ?"
		upd = "UPDATE d SET n = n WHERE id = ?"
	)
	for _, e := range []*Engine{direct, general} {
		for _, q := range []string{sel, upd} {
			if err := e.Prepare(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
	}
	args := []any{int64(1)}
	stmts := map[string]driver.Stmt{}
	for _, q := range []string{sel, upd} {
		direct.Conn.Raw(func(dc any) error {
			ds, err := dc.(driver.ConnPrepareContext).PrepareContext(ctx, q)
			stmts[q] = ds
			return err
		})
		defer direct.Conn.Raw(func(any) error { return stmts[q].Close() })
	}
	nv := []driver.NamedValue{{Ordinal: 1, Value: args[0]}}
	dest := make([]driver.Value, 1)
	const runs = 200
	driverQuery := minAllocs(runs, func() {
		direct.Conn.Raw(func(any) error {
			rows, err := stmts[sel].(driver.StmtQueryContext).QueryContext(ctx, nv)
			if err != nil {
				t.Fatal(err)
			}
			rows.Columns()
			rows.Next(dest)
			return rows.Close()
		})
	})
	driverExec := minAllocs(runs, func() {
		direct.Conn.Raw(func(any) error {
			res, err := stmts[upd].(driver.StmtExecContext).ExecContext(ctx, nv)
			if err != nil {
				t.Fatal(err)
			}
			res.RowsAffected()
			return nil
		})
	})
	allocs := func(e *Engine, q string) float64 {
		return minAllocs(runs, func() {
			var err error
			if q == sel {
				_, err = e.QueryInt(ctx, q, args...)
			} else {
				_, err = e.ExecArgs(ctx, q, args...)
			}
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	dq, gq, de, ge := allocs(direct, sel), allocs(general, sel), allocs(direct, upd), allocs(general, upd)
	t.Logf("allocations per call: QueryInt %.0f on the fast path (duckdb-go's own %.0f), %.0f through database/sql; ExecArgs %.0f (%.0f), %.0f", dq, driverQuery, gq, de, driverExec, ge)
	if dq > driverQuery || de > driverExec {
		t.Errorf("the fast path allocates beyond duckdb-go's statement: QueryInt %.0f (driver %.0f), ExecArgs %.0f (driver %.0f)", dq, driverQuery, de, driverExec)
	}
}

// BenchmarkQueryInt: a prepared point select, on the fast path and through
// database/sql, with a context that cannot be cancelled and one that can.
// duckdb-go starts a goroutine per call either way.
func BenchmarkQueryInt(b *testing.B) {
	path := b.TempDir() + "/bench.db"
	bg := context.Background()
	open := func() *Engine {
		e, err := dbms.Open(bg, "duckdb:"+path)
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
	if _, err := direct.Exec(bg, "CREATE TABLE d AS SELECT i AS id, 2 * i AS n FROM range(1, 1001) t(i)"); err != nil {
		b.Fatal(err)
	}
	if _, err := direct.Exec(bg, "ALTER TABLE d ADD PRIMARY KEY (id)"); err != nil {
		b.Fatal(err)
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
