package duckdb

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// AddPrimaryKey adds a primary key (ALTER TABLE ... ADD PRIMARY KEY, which
// DuckDB supports since 1.2): an ART index that enforces uniqueness and NOT
// NULL. It is the only index DuckDB keeps for point look-ups; the table is
// not reordered.
func (e *Engine) AddPrimaryKey(ctx context.Context, table string, columns ...string) error {
	return dbms.AddPrimaryKeySQL(ctx, e, table, columns...)
}

// AddForeignKey is not possible: DuckDB declares foreign keys only in
// CREATE TABLE ("No support for that ALTER TABLE option yet" in 1.5).
func (e *Engine) AddForeignKey(ctx context.Context, table, column, refTable, refColumn string) error {
	return fmt.Errorf("foreign key %s.%s: DuckDB declares foreign keys only in CREATE TABLE, ALTER TABLE cannot add one: %w", table, column, dbms.ErrNotSupported)
}
