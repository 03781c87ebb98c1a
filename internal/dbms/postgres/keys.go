package postgres

import (
	"context"
	"fmt"
	"strings"
)

// AddPrimaryKey adds a primary key on columns: PostgreSQL builds its unique
// B-tree index (table_pkey) and checks the rows for duplicates and NULLs.
func (e *Engine) AddPrimaryKey(ctx context.Context, table string, columns ...string) error {
	_, err := e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (%s)", table, strings.Join(columns, ", ")))
	if err != nil {
		return fmt.Errorf("primary key of %s: %w", table, err)
	}
	return nil
}

// AddForeignKey adds a foreign key from table.column to refTable.refColumn
// (which must be its primary key or unique); PostgreSQL checks every row.
func (e *Engine) AddForeignKey(ctx context.Context, table, column, refTable, refColumn string) error {
	_, err := e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ADD FOREIGN KEY (%s) REFERENCES %s (%s)", table, column, refTable, refColumn))
	if err != nil {
		return fmt.Errorf("foreign key %s.%s: %w", table, column, err)
	}
	return nil
}
