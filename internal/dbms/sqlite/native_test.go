package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mattn/go-sqlite3"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// nativeTable has a column of every kind go-sqlite3 converts by its
// declared type, and the rows give each storage class, NULL included.
var nativeTable = []string{
	"CREATE TABLE v (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, f REAL, s TEXT, b BLOB, ts TIMESTAMP, d DATE, ok BOOLEAN, u UNIQUE)",
	`INSERT INTO v VALUES
		(1, 7, 2.5, 'text  ', x'00ff20', '2024-01-02 03:04:05', 1700000000, 1, 'a'),
		(2, -5, 1e300, '', x'', 1700000000123, '2024-01-02', 0, 'b'),
		(3, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
		(4, 9223372036854775807, -0.0, 'ü', zeroblob(3), 'not a time', 'x', 2, 4.0),
		(5, 1, 3.0, '12', '12', 12, 12, 'true', x'41')`,
}

// nativeCase is a statement QueryText prepares, with its arguments.
type nativeCase struct {
	stmt string
	args []any
}

var nativeCases = []nativeCase{
	{"SELECT * FROM v ORDER BY id", nil},
	{"SELECT id, n + ? AS x, s || ? FROM v WHERE id = ?", []any{int64(3), "!", int64(1)}},
	{"SELECT * FROM v WHERE id = ?", []any{"4"}},
	{"SELECT ?, ?, ?, typeof(?), ? || ''", []any{nil, "", "tail  ", int64(7), "é"}},
	{"SELECT 1.5 * ?, 1e999, -1e999, 0.1 + 0.2, 1e21, 100.0", []any{"2"}},
	{"SELECT x'', zeroblob(0), CAST('abc' AS BLOB)", nil},
	{"SELECT id FROM v WHERE id > ? ORDER BY id", []any{int64(10)}},
	{"UPDATE v SET n = n + ? WHERE id = ?", []any{int64(1), int64(1)}},
	{"UPDATE v SET n = n + 1 WHERE id = ? RETURNING n, ts, ok", []any{int64(2)}},
	{"INSERT INTO v (id, n) VALUES (?, ?)", []any{int64(1), int64(0)}},   // primary key
	{"INSERT INTO v (id, n) VALUES (?, ?)", []any{int64(9), nil}},        // NOT NULL
	{"INSERT INTO v (id, n, u) VALUES (?, 0, ?)", []any{int64(10), "a"}}, // UNIQUE
	{"SELECT abs(?)", []any{int64(-9223372036854775807 - 1)}},            // overflow while stepping
	{"SELECT id FROM v WHERE id = ? OR id = ?", []any{int64(1)}},         // too few arguments
	{"SELECT id FROM v WHERE id = ?", []any{int64(1), int64(2)}},         // too many
	{"SELECT ? + 1", []any{2.5}},                                         // a type the native path leaves to the driver
	{"SELEC id FROM v", nil},                                             // syntax
	{"SELECT nosuch FROM v", nil},                                        // no such column
	{"DELETE FROM v WHERE id = ?", []any{int64(5)}},
	{"SELECT count(*), sum(n) FROM v", nil},
	// Results and arguments larger than the exchange area's first size.
	{"WITH RECURSIVE q(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM q WHERE i < ?) SELECT i, printf('%0*d', 300, i), i * 0.5, NULL FROM q", []any{int64(5000)}},
	{"SELECT length(?), ?, length(?)", []any{strings.Repeat("x", 100000), "short", strings.Repeat("é", 70000)}},
}

// TestNativeAsDriver: the native path gives the results and errors of the
// driver's path (go-sqlite3's statement through dbms.SQLBase's fast path,
// and database/sql without it), statement by statement, on two databases
// made alike.
func TestNativeAsDriver(t *testing.T) {
	ctx := context.Background()
	open := func(native, direct bool) *Engine {
		e := openSession(t, "sqlite:"+filepath.Join(t.TempDir(), "s.db"))
		if !native {
			e.Base().Native = nil
		}
		e.Base().DirectStmts = direct
		for _, s := range nativeTable {
			if _, err := e.Exec(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
		return e
	}
	for _, direct := range []bool{true, false} {
		native, general := open(true, true), open(false, direct)
		if native.Base().Native == nil {
			t.Fatal("the native path is off")
		}
		counted := &countingNatives{inner: native.Base().Native}
		native.Base().Native = counted
		for _, c := range nativeCases {
			for try := range 2 { // prepared, then reused
				var want, got dbms.TextResult
				errWant := general.QueryText(ctx, c.stmt, c.args, true, &want)
				errGot := native.QueryText(ctx, c.stmt, c.args, true, &got)
				name := fmt.Sprintf("%q %v (run %d, direct %v)", c.stmt, c.args, try+1, general.Base().DirectStmts)
				if !sameError(errGot, errWant) {
					t.Errorf("%s: error %v (class %v), want %v (class %v)", name, errGot, dbms.Classify(errGot), errWant, dbms.Classify(errWant))
					continue
				}
				if errWant == nil && !reflect.DeepEqual(got, want) {
					t.Errorf("%s:\n got  %q %q\n want %q %q", name, got.Columns, got.Rows, want.Columns, want.Rows)
				}
				// Without a result wanted, the same effect and error.
				errWant = general.QueryText(ctx, c.stmt, c.args, true, nil)
				errGot = native.QueryText(ctx, c.stmt, c.args, true, nil)
				if !sameError(errGot, errWant) {
					t.Errorf("%s without a result: error %v, want %v", name, errGot, errWant)
				}
			}
		}
		// Both databases went through the same statements twice each; a
		// new column has SQLite prepare the statement again, with one
		// more column (a time, by its declared type) in the result.
		for _, e := range []*Engine{general, native} {
			if _, err := e.Exec(ctx, "ALTER TABLE v ADD COLUMN w DATETIME DEFAULT 1700000000"); err != nil {
				t.Fatal(err)
			}
		}
		for _, prepared := range []bool{false, true} {
			q := "SELECT * FROM v ORDER BY id"
			var want, got dbms.TextResult
			if err := general.QueryText(ctx, q, nil, prepared, &want); err != nil {
				t.Fatal(err)
			}
			if err := native.QueryText(ctx, q, nil, prepared, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) || len(got.Columns) != 10 {
				t.Errorf("after the statements and a new column (prepared %v): %q %q, want %q %q and 10 columns", prepared, got.Columns, got.Rows, want.Columns, want.Rows)
			}
		}
		if counted.runs == 0 {
			t.Error("QueryText did not run the native statements")
		}
	}
}

// sameError: both nil, or the same message and class, and both an
// sqlite3.Error with the same codes when one is.
func sameError(got, want error) bool {
	if got == nil || want == nil {
		return got == nil && want == nil
	}
	if got.Error() != want.Error() || dbms.Classify(got) != dbms.Classify(want) {
		return false
	}
	var g, w sqlite3.Error
	okG, okW := errors.As(got, &g), errors.As(want, &w)
	return okG == okW && g.Code == w.Code && g.ExtendedCode == w.ExtendedCode && g.SystemErrno == w.SystemErrno
}

// countingNatives counts the runs of the statements it prepares.
type countingNatives struct {
	inner dbms.NativeStmts
	runs  int
}

func (c *countingNatives) PrepareNative(dc any, stmt string) (dbms.NativeStmt, error) {
	s, err := c.inner.PrepareNative(dc, stmt)
	if s == nil || err != nil {
		return s, err
	}
	return &countingStmt{s, &c.runs}, nil
}

type countingStmt struct {
	dbms.NativeStmt
	runs *int
}

func (s *countingStmt) Run(args []any, res *dbms.TextResult) (bool, error) {
	ok, err := s.NativeStmt.Run(args, res)
	if ok {
		*s.runs++
	}
	return ok, err
}

// TestNativeSession: the native statements run on the session's own
// connection (its temporary table, its transaction, and after Reconnect
// the new connection's), BEGIN and COMMIT among them; a busy database
// fails them as dbms.Serialization, a context that has ended stops them
// before they run, and Close finalizes them.
func TestNativeSession(t *testing.T) {
	ctx := context.Background()
	a, b := twoOnAccounts(t, ctx, "?_busy_timeout=0")
	counted := &countingNatives{inner: a.Base().Native}
	a.Base().Native = counted
	bal := "SELECT bal FROM acct WHERE id = ?"
	query := func(e *Engine, stmt string, args ...any) (string, error) {
		var res dbms.TextResult
		if err := e.QueryText(ctx, stmt, args, true, &res); err != nil {
			return "", err
		}
		if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
			return "", fmt.Errorf("%s: %q", stmt, res.Rows)
		}
		return res.Rows[0][0], nil
	}
	for round := range 2 {
		if _, err := a.Exec(ctx, "CREATE TEMP TABLE mine (x INTEGER)"); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Exec(ctx, "INSERT INTO mine VALUES (42)"); err != nil {
			t.Fatal(err)
		}
		if got, err := query(a, "SELECT x FROM mine WHERE x = ?", int64(42)); err != nil || got != "42" {
			t.Fatalf("round %d: the session's temporary table: %q, %v", round, got, err)
		}
		if err := a.Begin(ctx, dbms.Serializable); err != nil {
			t.Fatal(err)
		}
		if err := a.QueryText(ctx, upd, []any{int64(5), int64(1)}, true, nil); err != nil {
			t.Fatal(err)
		}
		if got, err := query(a, bal, int64(1)); err != nil || got != fmt.Sprint(5*(round+1)) {
			t.Fatalf("round %d: own write: %q, %v", round, got, err)
		}
		// b cannot write while a holds the write lock.
		err := b.QueryText(ctx, upd, []any{int64(1), int64(2)}, true, nil)
		if c := dbms.Classify(err); c != dbms.Serialization {
			t.Fatalf("round %d: a second writer: %v (class %v), want serialization", round, err, c)
		}
		if err := a.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if a.InTransaction() {
			t.Fatal("a transaction is still open after Commit")
		}
		if err := a.Reconnect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if counted.runs < 8 {
		t.Errorf("%d native runs, want at least 8", counted.runs)
	}

	// A write that finds the database busy fails as a serialization
	// failure on the native path too, its transaction's COMMIT after it.
	if err := b.Begin(ctx, dbms.Serializable); err != nil {
		t.Fatal(err)
	}
	if err := b.QueryText(ctx, upd, []any{int64(1), int64(2)}, true, nil); err != nil {
		t.Fatal(err)
	}
	if err := a.Begin(ctx, dbms.Serializable); err != nil {
		t.Fatal(err)
	}
	err := a.QueryText(ctx, upd, []any{int64(1), int64(1)}, true, nil)
	var se sqlite3.Error
	if c := dbms.Classify(err); c != dbms.Serialization || !errors.As(err, &se) || se.Code != sqlite3.ErrBusy {
		t.Errorf("busy: %v (class %v, %#v), want SQLITE_BUSY, serialization", err, c, se)
	}
	if err := a.Commit(ctx); dbms.Classify(err) != dbms.Serialization {
		t.Errorf("commit after the failure: %v, want it refused with the failure's class", err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	runs := counted.runs
	if err := a.QueryText(cancelled, upd, []any{int64(100), int64(1)}, true, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	if counted.runs != runs {
		t.Error("a statement ran under a cancelled context")
	}
	if got, err := query(a, bal, int64(1)); err != nil || got != "10" {
		t.Errorf("balance %q (%v), want 10: the cancelled update ran", got, err)
	}
}
