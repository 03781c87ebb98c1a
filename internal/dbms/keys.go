package dbms

import (
	"context"
	"fmt"
	"strings"
)

// Execer is the part of an Engine the standard key statements need.
type Execer interface {
	Exec(ctx context.Context, sql string) (int64, error)
}

// AddPrimaryKeySQL adds a primary key with standard ALTER TABLE, which
// PostgreSQL, MariaDB and DuckDB take as it is.
func AddPrimaryKeySQL(ctx context.Context, e Execer, table string, columns ...string) error {
	if _, err := e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (%s)", table, strings.Join(columns, ", "))); err != nil {
		return fmt.Errorf("primary key of %s: %w", table, err)
	}
	return nil
}

// AddForeignKeySQL adds a foreign key with standard ALTER TABLE.
func AddForeignKeySQL(ctx context.Context, e Execer, table, column, refTable, refColumn string) error {
	if _, err := e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ADD FOREIGN KEY (%s) REFERENCES %s (%s)", table, column, refTable, refColumn)); err != nil {
		return fmt.Errorf("foreign key %s.%s: %w", table, column, err)
	}
	return nil
}
