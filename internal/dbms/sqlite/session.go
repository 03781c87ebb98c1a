package sqlite

import (
	"context"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var (
	_ dbms.Transactor   = (*Engine)(nil)
	_ dbms.Keys         = (*Engine)(nil)
	_ dbms.SizeReporter = (*Engine)(nil)
)

// Begin starts a deferred transaction (BEGIN): SQLite is serializable
// whatever iso asks, because one connection at a time writes the database.
//
// The first write of a transaction takes the write lock. If another session
// holds it, SQLite waits up to the busy timeout (the URL's _busy_timeout in
// milliseconds, go-sqlite3's default 5000) and then fails with SQLITE_BUSY,
// dbms.Serialization: a failed trial, to be rolled back (and retried). A
// transaction that read before its first write cannot wait for the lock (the
// other writer may be waiting for its read lock to go), so it fails at once;
// a COMMIT that finds readers still active fails the same way and leaves the
// transaction open for Rollback. BEGIN IMMEDIATE would take the write lock at
// BEGIN; the plain BEGIN keeps read-only transactions from queueing behind
// writers.
//
// Several Engines (each its own connection) may share one database file; the
// file locks keep them consistent. In the default rollback-journal mode a
// writer's COMMIT waits for readers to finish; in WAL mode (URL
// ?_journal_mode=WAL) readers run beside the writer on their snapshot.
func (e *Engine) Begin(ctx context.Context, iso dbms.Isolation) error {
	return e.BeginText(ctx, "BEGIN")
}
