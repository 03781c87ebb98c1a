package duckdb

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
)

// directOptions hold the DuckDB adapter's fast path of prepared statements
// (dbms.SQLBase.DirectStmts) to database/sql's path, on a new file per
// check, for DuckDB's value types too: INTEGER as int32, HUGEINT as
// *big.Int, DECIMAL, sum of a BIGINT.
var directOptions = dbmstest.DirectOptions{
	NewDB:  func(tb testing.TB) string { return "duckdb:" + filepath.Join(tb.TempDir(), "d.db") },
	Driver: "duckdb-go",
	Table: []string{
		"CREATE TABLE d (id INTEGER PRIMARY KEY, n INTEGER, big BIGINT, h HUGEINT, s VARCHAR, f DOUBLE, z INTEGER, m DECIMAL(9,2))",
		"INSERT INTO d VALUES (1, 7, 9000000000, 12, '42', 2.0, NULL, 1.5), (2, 300, -1, 0, 'x', 2.5, NULL, 2), (3, -5, 0, -3, '9', 1e3, 1, 0)",
	},
	Queries: []dbmstest.DirectQuery{
		{Q: "SELECT h FROM d WHERE id = ?", Args: []any{int64(1)}},
		{Q: "SELECT h FROM d WHERE id = ?", Args: []any{int64(3)}},
		{Q: "SELECT m FROM d WHERE id = ?", Args: []any{int64(1)}},
		{Q: "SELECT m FROM d WHERE id = ?", Args: []any{int64(2)}},
	},
	// A prepared QueryInt or ExecArgs on the fast path allocates nothing
	// beyond what duckdb-go's own statement call allocates, measured
	// alongside by calling the driver statement directly.
	AllocRuns:  200,
	AllocSlack: 0,
}

// TestDirect: the fast path answers, stores and fails as database/sql does,
// stops on a cancelled context, and allocates no more than duckdb-go.
func TestDirect(t *testing.T) {
	dbmstest.CheckDirectPath(t, context.Background(), directOptions)
}

// TestDirectConflict: on the fast path a conflict fails the transaction as
// through database/sql (Commit rolls back and reports it).
func TestDirectConflict(t *testing.T) {
	ctx := context.Background()
	direct, general := dbmstest.DirectPair(t, ctx, directOptions)
	const upd = "UPDATE d SET n = n + ? WHERE id < ?"
	for _, e := range []dbmstest.Session{direct, general} {
		if err := e.Prepare(ctx, upd); err != nil {
			t.Fatal(err)
		}
	}
	dbmstest.BeginAll(t, ctx, dbms.RepeatableRead, direct, general)
	if _, err := general.ExecArgs(ctx, upd, 1, int64(2)); err != nil {
		t.Fatal(err)
	}
	_, err := direct.ExecArgs(ctx, upd, 1, int64(2))
	if dbms.Classify(err) != dbms.Serialization {
		t.Errorf("update of a row another transaction changed, on the fast path: %v (class %v), want serialization", err, dbms.Classify(err))
	}
	if err := direct.Commit(ctx); dbms.Classify(err) != dbms.Serialization {
		t.Errorf("commit after the conflict: %v, want the conflict", err)
	}
	if err := general.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkQueryInt: a prepared point select, on the fast path and through
// database/sql, with a context that cannot be cancelled and one that can.
// duckdb-go starts a goroutine per call either way.
func BenchmarkQueryInt(b *testing.B) { dbmstest.BenchmarkDirectQueryInt(b, directOptions) }
