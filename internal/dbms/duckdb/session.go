package duckdb

import (
	"context"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var (
	_ dbms.Transactor   = (*Engine)(nil)
	_ dbms.Keys         = (*Engine)(nil)
	_ dbms.SizeReporter = (*Engine)(nil)
)

// Begin starts a transaction (BEGIN TRANSACTION). DuckDB has one level,
// snapshot isolation with optimistic concurrency control, whatever iso asks:
// a transaction that updates or deletes a row another transaction changed
// and has not committed, or committed after this one began, fails at once
// with "Conflict on update" (no waiting), a dbms.Serialization. The transaction
// is then aborted: Commit rolls it back and returns the conflict (DuckDB
// itself would answer COMMIT with success), so a failed trial is always
// reported.
//
// Engines of this process on the same file share one DuckDB instance (see
// sessions in flush.go), so their transactions see each other as
// concurrent transactions of one database.
func (e *Engine) Begin(ctx context.Context, iso dbms.Isolation) error {
	return e.BeginText(ctx, "BEGIN TRANSACTION")
}
