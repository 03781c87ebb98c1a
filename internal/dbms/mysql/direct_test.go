package mysql

import (
	"context"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// directOptions hold the MariaDB adapter's fast path of prepared statements
// (dbms.SQLBase.DirectStmts) to database/sql's path, on the database newDB
// names, for the values the driver's binary protocol returns too: BIGINT
// UNSIGNED beyond int64 and DECIMAL as text, DATETIME as time.Time (the
// adapter sets parseTime), FLOAT as float32, TINYINT(1); and bool and
// time.Time arguments, which the fast path passes to the driver as they
// are.
func directOptions(newDB func(testing.TB) string) dbmstest.DirectOptions {
	day := time.Date(2024, 2, 29, 12, 30, 0, 0, time.UTC)
	return dbmstest.DirectOptions{
		NewDB:  newDB,
		Driver: "go-sql-driver/mysql",
		Table: []string{
			"CREATE TABLE d (id INT PRIMARY KEY, n INT, s VARCHAR(20), f DOUBLE, z INT, big BIGINT, " +
				"u BIGINT UNSIGNED, m DECIMAL(9,2), t DATETIME, y TINYINT(1), r FLOAT) ENGINE=InnoDB",
			"INSERT INTO d VALUES (1, 7, '42', 2.0, NULL, 9000000000, 18446744073709551615, 1.5, '2024-02-29 12:30:00', 1, 2.5), " +
				"(2, 300, 'x', 2.5, NULL, -1, 5, 2, '2000-01-01 00:00:00', 0, 3), (3, -5, '9', 1e3, 1, 0, 0, 0, NULL, NULL, -1)",
		},
		Queries: []dbmstest.DirectQuery{
			{Q: "SELECT u FROM d WHERE id = ?", Args: []any{int64(1)}},
			{Q: "SELECT u FROM d WHERE id = ?", Args: []any{int64(2)}},
			{Q: "SELECT m FROM d WHERE id = ?", Args: []any{int64(1)}},
			{Q: "SELECT m FROM d WHERE id = ?", Args: []any{int64(2)}},
			{Q: "SELECT t FROM d WHERE id = ?", Args: []any{int64(1)}},
			{Q: "SELECT y FROM d WHERE id = ?", Args: []any{int64(1)}},
			{Q: "SELECT r FROM d WHERE id = ?", Args: []any{int64(1)}},
			{Q: "SELECT r FROM d WHERE id = ?", Args: []any{int64(2)}},
			{Q: "SELECT count(*) FROM d WHERE t < ?", Args: []any{day}},
			{Q: "SELECT count(*) FROM d WHERE t = ?", Args: []any{day}},
			{Q: "SELECT count(*) FROM d WHERE y = ?", Args: []any{true}},
			{Q: "SELECT count(*) FROM d WHERE y = ? AND t <= ?", Args: []any{false, day}},
			{Q: "SELECT n FROM d WHERE t = ?", Args: []any{"2000-01-01 00:00:00"}},
		},
		// The bytes each path stored as text.
		Stored: []string{"hex(s)"},
		// A prepared QueryInt or ExecArgs on the fast path allocates nothing
		// beyond what go-sql-driver/mysql's own statement call allocates,
		// measured alongside by calling the driver statement directly with
		// the context the fast path hands it. The bound (no allocation
		// beyond the driver's) was measured on MariaDB 10.11: QueryInt 5
		// allocations per call of an INT, 6 of a BIGINT, all the driver's,
		// against 22 and 23 through database/sql; ExecArgs 3, all the
		// driver's, against 5; a transaction (START TRANSACTION, an
		// update, a select, COMMIT) 14 against 35; each the same with a
		// context that can end as without (the driver hands it to its
		// watcher goroutine without allocating).
		AllocRuns:  200,
		AllocSlack: 0,
	}
}

// TestDirect: the fast path answers, stores and fails as database/sql does,
// stops on a cancelled context, and allocates no more than the driver, on
// a private MariaDB.
func TestDirect(t *testing.T) {
	inst := servertest.Start(t, "mariadb", server.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dbmstest.CheckDirectPath(t, ctx, directOptions(func(testing.TB) string { return inst.URL }))
}

// BenchmarkQueryInt: a prepared point select, on the fast path and through
// database/sql, with a context that cannot be cancelled and one that can,
// on a private MariaDB over TCP.
func BenchmarkQueryInt(b *testing.B) {
	dbmstest.BenchmarkDirectQueryInt(b, directOptions(func(tb testing.TB) string {
		return servertest.Start(tb, "mariadb", server.Options{}).URL
	}))
}
