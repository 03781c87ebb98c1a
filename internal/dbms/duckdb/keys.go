package duckdb

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// AddPrimaryKey adds a primary key (ALTER TABLE ... ADD PRIMARY KEY, which
// DuckDB supports since 1.2): an ART index that enforces uniqueness and NOT
// NULL. It is the only index DuckDB keeps for point look-ups; the table is
// not reordered.
func (e *Engine) AddPrimaryKey(ctx context.Context, table string, columns ...string) error {
	_, err := e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (%s)", table, strings.Join(columns, ", ")))
	if err != nil {
		return fmt.Errorf("primary key of %s: %w", table, err)
	}
	return nil
}

// AddForeignKey is not possible: DuckDB declares foreign keys only in
// CREATE TABLE ("No support for that ALTER TABLE option yet" in 1.5).
func (e *Engine) AddForeignKey(ctx context.Context, table, column, refTable, refColumn string) error {
	return fmt.Errorf("foreign key %s.%s: DuckDB declares foreign keys only in CREATE TABLE, ALTER TABLE cannot add one: %w", table, column, dbms.ErrNotSupported)
}
