package duckdb

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// TableBytes reports the size of the whole database file, not of tables
// alone (DuckDB has no per-table figure in bytes): the used blocks times
// the block size, plus the write-ahead log. It runs CHECKPOINT first, so
// that rows still only in the WAL are written into blocks and counted as
// stored; should the checkpoint fail (this session is inside a
// transaction), the WAL's size stands in for them. The tables must exist.
// The figure moves in blocks (256 KiB by default) and by a few blocks more
// or less with DuckDB's block management: large inserts write blocks before
// commit and a checkpoint may rewrite them. An in-memory database has no
// stored size: ErrNotSupported.
func (e *Engine) TableBytes(ctx context.Context, tables ...string) (int64, error) {
	if e.path == "" {
		return 0, fmt.Errorf("size of an in-memory DuckDB database: it stores nothing: %w", dbms.ErrNotSupported)
	}
	if len(tables) == 0 {
		return 0, nil
	}
	names := make([]string, len(tables))
	for i, t := range tables {
		names[i] = dbms.Quote(unqualified(t))
	}
	var found int
	err := e.Conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM duckdb_tables() WHERE database_name = current_database() AND table_name IN ("+strings.Join(names, ", ")+")").Scan(&found)
	if err != nil {
		return 0, classify(err)
	}
	if found != len(tables) {
		return 0, fmt.Errorf("size of %s: %d of the %d tables exist", strings.Join(tables, ", "), found, len(tables))
	}
	e.Conn.ExecContext(ctx, "CHECKPOINT")
	var used, block int64
	var wal string
	err = e.Conn.QueryRowContext(ctx, "SELECT used_blocks, block_size, wal_size FROM pragma_database_size() WHERE database_name = current_database()").Scan(&used, &block, &wal)
	if err != nil {
		return 0, fmt.Errorf("size of the database: %w", classify(err))
	}
	walBytes, err := parseSize(wal)
	if err != nil {
		return 0, fmt.Errorf("size of the database: %w", err)
	}
	return used*block + walBytes, nil
}
