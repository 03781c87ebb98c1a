package duckdb

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.PrivateDatabase = (*Engine)(nil)

// PrivateDatabase: one process owns a DuckDB file, and an in-memory
// database is private to its connection, so there is nothing for several
// users to share.
func (e *Engine) PrivateDatabase() string {
	return "DuckDB gives one process one file: use a server engine or SQLite"
}
