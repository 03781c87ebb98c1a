package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
)

// directOptions hold the SQLite adapter's fast path of prepared statements
// (dbms.SQLBase.DirectStmts) to database/sql's path, on a new file per check.
var directOptions = dbmstest.DirectOptions{
	NewDB:  func(tb testing.TB) string { return "sqlite:" + filepath.Join(tb.TempDir(), "s.db") },
	Driver: "go-sqlite3",
	Table: []string{
		"CREATE TABLE d (id INTEGER PRIMARY KEY, n INTEGER, s TEXT, f REAL, z INTEGER, big INTEGER)",
		"INSERT INTO d VALUES (1, 7, '42', 2.0, NULL, 9000000000), (2, 300, 'x', 2.5, NULL, -1), (3, -5, '9', 1e3, 1, 0)",
	},
	// The storage class each path's arguments got.
	Stored: []string{"typeof(s) || typeof(big)"},
	// A context that has ended stops a call on the fast path (a prepared
	// QueryInt or ExecArgs, BEGIN) before it runs, although the adapter
	// hands go-sqlite3 a context it does not watch (Unwatched). Through
	// database/sql only the query is sure to stop: go-sqlite3 runs an Exec
	// on a goroutine and returns its result when that ends before it notices
	// the context.
	Unwatched: true,
	// A prepared QueryInt or ExecArgs on the fast path allocates nothing
	// beyond what go-sqlite3's own statement call allocates (its Rows, its
	// Result), measured alongside by calling the driver statement directly
	// with a context that cannot be cancelled; the fast path is given one
	// that can, as the load driver's, and must not watch it (no AfterFunc,
	// no goroutine per statement). A whole transaction (BEGIN, an update, a
	// select, COMMIT) costs no more with that context than without.
	AllocRuns:  1000,
	AllocSlack: 0,
}

// TestDirect: the fast path answers, stores and fails as database/sql does,
// stops on a cancelled context, and allocates no more than go-sqlite3.
func TestDirect(t *testing.T) {
	dbmstest.CheckDirectPath(t, context.Background(), directOptions)
}

// BenchmarkQueryInt: a prepared point select, on the fast path and through
// database/sql, with a context that cannot be cancelled (no watch) and one
// that can (go-sqlite3 and database/sql watch it per call).
func BenchmarkQueryInt(b *testing.B) { dbmstest.BenchmarkDirectQueryInt(b, directOptions) }
