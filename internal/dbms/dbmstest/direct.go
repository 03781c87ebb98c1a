package dbmstest

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// DirectOptions describe an engine whose adapter sets
// dbms.SQLBase.DirectStmts to the checks of that fast path of prepared
// statements (CheckDirectPath, BenchmarkDirectQueryInt): what differs from
// engine to engine, the dialect of the test table, the value types the
// engine has, and what its driver allows.
type DirectOptions struct {
	// NewDB returns the URL of a database for tb's sessions: a new file in
	// tb.TempDir() for an embedded engine, a private server's database (the
	// checks drop and create their table d) for a server.
	NewDB func(tb testing.TB) string
	// Driver names the driver in messages: go-sqlite3.
	Driver string
	// Table creates table d in the engine's dialect and fills it. Every
	// engine's d has the columns id (the primary key), n (integer), s
	// (text), f (double), z (integer), big (64-bit integer), with the rows
	//
	//	(1, 7, '42', 2.0, NULL, 9000000000)
	//	(2, 300, 'x', 2.5, NULL, -1)
	//	(3, -5, '9', 1e3, 1, 0)
	//
	// and may have more columns (NULL allowed), of the engine's own types,
	// for Queries.
	Table []string
	// Queries are QueryInt cases of the engine's own, after the shared
	// ones (directQueries): its value types, its functions.
	Queries []DirectQuery
	// Stored are expressions over d beyond its shared columns whose value
	// must be the same for the rows the fast path and database/sql inserted:
	// the storage types the engine gave the arguments (SQLite's typeof).
	Stored []string
	// Unwatched is what the adapter sets SQLBase.Unwatched to. With it the
	// fast path, given a context that can end, must cost no more than the
	// driver's statement called with one that cannot, and a transaction no
	// more than with one that cannot.
	Unwatched bool
	// AllocRuns is the number of calls each testing.AllocsPerRun averages.
	AllocRuns int
	// AllocSlack is how many allocations a call on the fast path may make
	// beyond the driver's own statement call, measured alongside.
	AllocSlack float64
}

// DirectQuery is a QueryInt call: the statement (prepared) and its
// arguments.
type DirectQuery struct {
	Q    string
	Args []any
}

// directQueries are the QueryInt cases every engine answers on the fast path
// as through database/sql: values of every shared column type, ints of
// every width as arguments, no row, NULL, text that is no number, a row of
// two columns, a wrong number of arguments, an argument type left to the
// general path (uint8), bool and time.Time arguments, which the fast path
// passes on as they are.
var directQueries = []DirectQuery{
	{"SELECT n FROM d WHERE id = ?", []any{int64(1)}},
	{"SELECT n FROM d WHERE id = ?", []any{2}},
	{"SELECT n FROM d WHERE id = ?", []any{int32(3)}},
	{"SELECT n FROM d WHERE id = ?", []any{int64(99)}},
	{"SELECT n FROM d WHERE id = ?", []any{uint8(2)}},
	{"SELECT n FROM d WHERE id = ?", []any{}},
	{"SELECT n FROM d WHERE id = ?", []any{int64(1), int64(2)}},
	{"SELECT big FROM d WHERE id = ?", []any{int64(1)}},
	{"SELECT sum(big) FROM d WHERE id > ?", []any{int64(0)}},
	{"SELECT s FROM d WHERE id = ?", []any{int64(1)}},
	{"SELECT s FROM d WHERE id = ?", []any{int64(2)}},
	{"SELECT f FROM d WHERE id = ?", []any{int64(1)}},
	{"SELECT f FROM d WHERE id = ?", []any{int64(2)}},
	{"SELECT z FROM d WHERE id = ?", []any{int64(1)}},
	{"SELECT n, s FROM d WHERE id = ?", []any{int64(1)}},
	{"SELECT n FROM d WHERE s = ?", []any{"x"}},
	{"SELECT n FROM d WHERE f > ? ORDER BY id", []any{1.5}},
	{"SELECT count(*) FROM d WHERE id > ? AND s <> ?", []any{0, "9"}},
	{"SELECT n FROM d ORDER BY id DESC", nil},
	{"SELECT n FROM d WHERE id = ? OR ? IS NULL", []any{int64(5), nil}},
	{"SELECT count(*) FROM d WHERE (id > ?) = ?", []any{int64(1), true}},
	{"SELECT count(*) FROM d WHERE (id > ?) = ?", []any{int64(1), false}},
	{"SELECT n FROM d WHERE id = ? OR ? IS NULL", []any{int64(5), directDay}},
}

// directDay is a time.Time argument.
var directDay = time.Date(2024, 2, 29, 12, 30, 0, 0, time.UTC)

// CheckDirectPath holds the fast path of prepared statements
// (dbms.SQLBase.DirectStmts, dbms/tx.go) of an engine to database/sql's
// general path, each check on two new sessions of its own (DirectPair):
//
//   - QueryInt: prepared QueryInt answers as through database/sql (the
//     shared cases, directQueries, and opts.Queries), twice each: the
//     second call reuses the fast path's buffers.
//   - ExecArgs: prepared ExecArgs affects the rows database/sql's path
//     does, stores every argument type the same way, and fails the same
//     way, failing the open transaction too.
//   - Cancelled: a context that has ended stops a prepared QueryInt or
//     ExecArgs, and Begin, on the fast path before it runs.
//   - Allocations: a prepared QueryInt or ExecArgs on the fast path
//     allocates no more than the driver's own statement call (plus
//     opts.AllocSlack).
func CheckDirectPath(t *testing.T, ctx context.Context, opts DirectOptions) {
	t.Run("QueryInt", func(t *testing.T) { checkDirectQueryInt(t, ctx, opts) })
	t.Run("ExecArgs", func(t *testing.T) { checkDirectExecArgs(t, ctx, opts) })
	t.Run("Cancelled", func(t *testing.T) { checkDirectCancelled(t, ctx, opts) })
	t.Run("Allocations", func(t *testing.T) { checkDirectAllocations(t, ctx, opts) })
}

// DirectPair opens two sessions on a database of opts.NewDB and creates
// table d (opts.Table) through the first: direct, with the fast path (the
// adapter's default, which it checks), and general, with DirectStmts turned
// off, through database/sql only.
func DirectPair(tb testing.TB, ctx context.Context, opts DirectOptions) (direct, general Session) {
	tb.Helper()
	direct, general = openDirectPair(tb, ctx, opts)
	for _, q := range opts.Table {
		if _, err := direct.Exec(ctx, q); err != nil {
			tb.Fatalf("%s: %v", q, err)
		}
	}
	return direct, general
}

// openDirectPair is DirectPair with d dropped, not created.
func openDirectPair(tb testing.TB, ctx context.Context, opts DirectOptions) (direct, general Session) {
	tb.Helper()
	url := opts.NewDB(tb)
	open := func() Session {
		e, err := dbms.Open(ctx, url)
		if err != nil {
			tb.Fatalf("open %s: %v", url, err)
		}
		tb.Cleanup(func() { e.Close() })
		s, ok := e.(Session)
		if !ok {
			tb.Fatalf("%s does not run transactions", e.Name())
		}
		return s
	}
	direct, general = open(), open()
	if !sqlBase(tb, direct).DirectStmts || !sqlBase(tb, general).DirectStmts {
		tb.Fatalf("the %s adapter does not set DirectStmts", direct.Name())
	}
	sqlBase(tb, general).DirectStmts = false
	if err := direct.DropTable(ctx, "d"); err != nil {
		tb.Fatal(err)
	}
	return direct, general
}

// sqlBase is the dbms.SQLBase that s, an adapter's *Engine, embeds.
func sqlBase(tb testing.TB, s Session) *dbms.SQLBase {
	tb.Helper()
	if b, ok := s.(interface{ Base() *dbms.SQLBase }); ok {
		return b.Base()
	}
	tb.Fatalf("the %s adapter's engine %T does not embed dbms.SQLBase", s.Name(), s)
	return nil
}

// prepareAll prepares every statement on every session.
func prepareAll(tb testing.TB, ctx context.Context, stmts []string, sessions ...Session) {
	tb.Helper()
	for _, e := range sessions {
		for _, q := range stmts {
			if err := e.Prepare(ctx, q); err != nil {
				tb.Fatalf("prepare %s: %v", q, err)
			}
		}
	}
}

func checkDirectQueryInt(t *testing.T, ctx context.Context, opts DirectOptions) {
	direct, general := DirectPair(t, ctx, opts)
	for _, c := range append(slices.Clip(directQueries), opts.Queries...) {
		prepareAll(t, ctx, []string{c.Q}, direct, general)
		// Twice: the second call reuses the fast path's buffers.
		for range 2 {
			v, err := direct.QueryInt(ctx, c.Q, c.Args...)
			wv, werr := general.QueryInt(ctx, c.Q, c.Args...)
			if v != wv || fmt.Sprint(err) != fmt.Sprint(werr) || errors.Is(err, dbms.ErrNoRows) != errors.Is(werr, dbms.ErrNoRows) {
				t.Errorf("%s %v: fast path %d, %v; database/sql %d, %v", c.Q, c.Args, v, err, wv, werr)
			}
		}
	}
}

func checkDirectExecArgs(t *testing.T, ctx context.Context, opts DirectOptions) {
	direct, general := DirectPair(t, ctx, opts)
	const (
		ins = "INSERT INTO d (id, n, s, f, z, big) VALUES (?, ?, ?, ?, ?, ?)"
		upd = "UPDATE d SET n = n + ? WHERE id < ?"
	)
	sessions := []Session{direct, general}
	prepareAll(t, ctx, []string{ins, upd}, sessions...)
	stored := append([]string{"n", "s", "f", "z IS NULL", "big"}, opts.Stored...)
	for _, r := range []struct {
		id   int64 // the fast path's row; database/sql's is id+1
		args []any // n, s, f, z, big
		// must: every engine stores these; else an engine may convert
		// or refuse them, the same way on both paths.
		must bool
	}{
		// Every type the fast path passes on as it is but bool and
		// time.Time, and an int it widens.
		{10, []any{1, []byte("text"), 0.5, nil, "77"}, true},
		// bool and narrower ints into columns of other types.
		{20, []any{true, "bool", int64(3), false, int32(5)}, false},
		// []byte into an integer column (SQLite keeps a blob, DuckDB
		// refuses it).
		{30, []any{int32(2), "text", 1.0, nil, []byte("77")}, false},
		// time.Time into a text column.
		{40, []any{2, directDay, 0.5, nil, int64(1)}, false},
	} {
		var ns [2]int64
		var errs [2]error
		for i, e := range sessions {
			ns[i], errs[i] = e.ExecArgs(ctx, ins, append([]any{r.id + int64(i)}, r.args...)...)
			if r.must && (ns[i] != 1 || errs[i] != nil) {
				t.Fatalf("insert %v: %d, %v", r.args, ns[i], errs[i])
			}
		}
		if ns[0] != ns[1] {
			t.Errorf("insert %v: fast path %d rows, database/sql %d", r.args, ns[0], ns[1])
		}
		if fmt.Sprint(errs[0]) != fmt.Sprint(errs[1]) {
			t.Errorf("insert %v: fast path %v, database/sql %v", r.args, errs[0], errs[1])
			continue
		}
		if errs[0] != nil {
			t.Logf("insert %v: %v on both paths", r.args, errs[0])
			continue
		}
		for _, col := range stored {
			rows, err := direct.QueryRows(ctx, fmt.Sprintf("SELECT %s FROM d WHERE id IN (%d, %d) ORDER BY id", col, r.id, r.id+1))
			if err != nil || len(rows) != 2 || rows[0][0] != rows[1][0] {
				t.Errorf("%s of %v stored by the fast path and by database/sql: %v, %v", col, r.args, rows, err)
			}
		}
	}
	n, err := direct.ExecArgs(ctx, upd, 1, int64(3))
	wn, werr := general.ExecArgs(ctx, upd, 1, int64(3))
	if n != 2 || n != wn || err != nil || werr != nil {
		t.Errorf("update: fast path %d rows, %v; database/sql %d rows, %v", n, err, wn, werr)
	}
	if rows, err := direct.QueryRows(ctx, "SELECT n FROM d WHERE id = 1"); err != nil || len(rows) != 1 || rows[0][0] != "9" {
		t.Errorf("n = %v, %v after two updates of 1, want 9", rows, err)
	}

	// A duplicate key inside a transaction: the same error, remembered by
	// Commit, which rolls back.
	BeginAll(t, ctx, dbms.RepeatableRead, direct, general)
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

func checkDirectCancelled(t *testing.T, bg context.Context, opts DirectOptions) {
	direct, general := DirectPair(t, bg, opts)
	if u := sqlBase(t, direct).Unwatched; u != opts.Unwatched {
		t.Fatalf("the %s adapter sets Unwatched %v, want %v", direct.Name(), u, opts.Unwatched)
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	const (
		sel = "SELECT n FROM d WHERE id = ?"
		upd = "UPDATE d SET n = n + 1 WHERE id = ?"
	)
	for _, e := range []Session{direct, general} {
		prepareAll(t, bg, []string{sel}, e)
		if _, err := e.QueryInt(ctx, sel, int64(1)); !errors.Is(err, context.Canceled) {
			t.Errorf("QueryInt on a cancelled context: %v", err)
		}
	}
	prepareAll(t, bg, []string{upd}, direct)
	if _, err := direct.ExecArgs(ctx, upd, int64(1)); !errors.Is(err, context.Canceled) {
		t.Errorf("ExecArgs on a cancelled context: %v", err)
	}
	if err := direct.Begin(ctx, dbms.RepeatableRead); !errors.Is(err, context.Canceled) || sqlBase(t, direct).InTransaction() {
		t.Errorf("Begin on a cancelled context: %v (in a transaction: %v)", err, sqlBase(t, direct).InTransaction())
	}
	if v, err := direct.QueryInt(bg, sel, int64(1)); v != 7 || err != nil {
		t.Errorf("n = %d, %v after the cancelled update, want 7", v, err)
	}
}

// checkDirectAllocations measures prepared QueryInt calls (of an integer
// and of a 64-bit column) and ExecArgs on the fast path against the
// driver's statement called directly, each with a context that cannot end
// and with one that can, as the load driver's (which the driver
// measurement gets too, unless opts.Unwatched: the fast path must then not
// watch it, no AfterFunc, no goroutine per statement).
func checkDirectAllocations(t *testing.T, bg context.Context, opts DirectOptions) {
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	direct, general := DirectPair(t, bg, opts)
	const (
		sel    = "SELECT n FROM d WHERE id = ?"
		selBig = "SELECT big FROM d WHERE id = ?"
		upd    = "UPDATE d SET n = n WHERE id = ?"
	)
	prepareAll(t, bg, []string{sel, selBig, upd}, direct, general)
	args := []any{int64(1)} // boxed once: the caller's cost, not the call's
	check := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	call := func(e Session, ctx context.Context, q string) func() {
		if q == upd {
			return func() { _, err := e.ExecArgs(ctx, q, args...); check(err) }
		}
		return func() { _, err := e.QueryInt(ctx, q, args...); check(err) }
	}

	// The driver's own cost: its statements called directly.
	conn := sqlBase(t, direct).Conn
	stmts := map[string]driver.Stmt{}
	for _, q := range []string{sel, selBig, upd} {
		check(conn.Raw(func(dc any) error {
			ds, err := dc.(driver.ConnPrepareContext).PrepareContext(bg, q)
			stmts[q] = ds
			return err
		}))
		defer conn.Raw(func(any) error { return stmts[q].Close() })
	}
	nv := []driver.NamedValue{{Ordinal: 1, Value: args[0]}}
	dest := make([]driver.Value, 1)
	driverCall := func(ctx context.Context, q string) func() {
		if q == upd {
			return func() {
				conn.Raw(func(any) error {
					res, err := stmts[q].(driver.StmtExecContext).ExecContext(ctx, nv)
					check(err)
					res.RowsAffected()
					return nil
				})
			}
		}
		return func() {
			conn.Raw(func(any) error {
				rows, err := stmts[q].(driver.StmtQueryContext).QueryContext(ctx, nv)
				check(err)
				rows.Columns()
				rows.Next(dest)
				return rows.Close()
			})
		}
	}
	driverCtx := ctx // what the fast path hands the driver
	if opts.Unwatched {
		driverCtx = bg
	}
	runs := opts.AllocRuns
	for _, q := range []string{sel, selBig, upd} {
		d, dbg := minAllocs(runs, call(direct, ctx, q)), minAllocs(runs, call(direct, bg, q))
		r, rbg := minAllocs(runs, driverCall(driverCtx, q)), minAllocs(runs, driverCall(bg, q))
		g := minAllocs(runs, call(general, ctx, q))
		t.Logf("%s: %.0f allocations per call on the fast path, %.0f with a context that cannot end; %s's own %.0f, %.0f; %.0f through database/sql",
			q, d, dbg, opts.Driver, r, rbg, g)
		if d > r+opts.AllocSlack || dbg > rbg+opts.AllocSlack {
			t.Errorf("%s: the fast path allocates %.0f, %.0f with a context that cannot end, beyond %s's statement (%.0f, %.0f) and %.0f more",
				q, d, dbg, opts.Driver, r, rbg, opts.AllocSlack)
		}
	}

	// A whole transaction: BEGIN, an update, a select, COMMIT.
	transaction := func(e Session, ctx context.Context) func() {
		return func() {
			check(e.Begin(ctx, dbms.RepeatableRead))
			_, err := e.ExecArgs(ctx, upd, args...)
			check(err)
			_, err = e.QueryInt(ctx, sel, args...)
			check(err)
			check(e.Commit(ctx))
		}
	}
	dt, dtbg := minAllocs(runs, transaction(direct, ctx)), minAllocs(runs, transaction(direct, bg))
	gt := minAllocs(runs, transaction(general, ctx))
	t.Logf("transaction: %.0f allocations on the fast path, %.0f with a context that cannot end; %.0f through database/sql", dt, dtbg, gt)
	if opts.Unwatched && dt > dtbg {
		t.Errorf("a transaction on the fast path costs %.0f allocations with a context that can end, %.0f without: the context is watched", dt, dtbg)
	}
}

// BenchmarkDirectQueryInt runs a prepared point select on a table of 1,000
// rows, on the fast path and through database/sql, with a context that
// cannot be cancelled and one that can.
func BenchmarkDirectQueryInt(b *testing.B, opts DirectOptions) {
	bg := context.Background()
	direct, general := openDirectPair(b, bg, opts)
	cancellable, cancel := context.WithCancel(bg)
	defer cancel()
	const (
		q    = "SELECT n FROM d WHERE id = ?"
		ins  = "INSERT INTO d (id, n) VALUES (?, ?)"
		rows = 1000
	)
	if _, err := direct.Exec(bg, "CREATE TABLE d (id INTEGER PRIMARY KEY, n BIGINT)"); err != nil {
		b.Fatal(err)
	}
	prepareAll(b, bg, []string{ins}, direct)
	if err := direct.Begin(bg, dbms.RepeatableRead); err != nil {
		b.Fatal(err)
	}
	for i := int64(1); i <= rows; i++ {
		if _, err := direct.ExecArgs(bg, ins, i, 2*i); err != nil {
			b.Fatal(err)
		}
	}
	if err := direct.Commit(bg); err != nil {
		b.Fatal(err)
	}
	prepareAll(b, bg, []string{q}, direct, general)
	for _, c := range []struct {
		name string
		e    Session
		ctx  context.Context
	}{
		{"direct", direct, bg}, {"direct-cancellable", direct, cancellable},
		{"database-sql", general, bg}, {"database-sql-cancellable", general, cancellable},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			// One argument slice: through the interface the compiler
			// would put a new one per call on the heap.
			args := make([]any, 1)
			for i := 0; b.Loop(); i++ {
				args[0] = int64(1 + i%rows)
				if _, err := c.e.QueryInt(c.ctx, q, args...); err != nil {
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
