package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// AddPrimaryKey creates a UNIQUE INDEX table_pkey on columns: SQLite cannot
// add a constraint to an existing table, and a unique index gives the same
// access path and the same uniqueness check (a rowid table's PRIMARY KEY is
// such an index too; only NOT NULL is not enforced).
func (e *Engine) AddPrimaryKey(ctx context.Context, table string, columns ...string) error {
	_, err := e.Exec(ctx, fmt.Sprintf("CREATE UNIQUE INDEX %s_pkey ON %s (%s)", table, table, strings.Join(columns, ", ")))
	if err != nil {
		return fmt.Errorf("primary key of %s: %w", table, err)
	}
	return nil
}

// AddForeignKey is not possible: SQLite declares foreign keys only in
// CREATE TABLE (ALTER TABLE cannot add one), and enforces them only with
// PRAGMA foreign_keys=ON.
func (e *Engine) AddForeignKey(ctx context.Context, table, column, refTable, refColumn string) error {
	return fmt.Errorf("foreign key %s.%s: SQLite declares foreign keys only in CREATE TABLE, ALTER TABLE cannot add one: %w", table, column, dbms.ErrNotSupported)
}
