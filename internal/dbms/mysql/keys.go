package mysql

import (
	"context"
	"fmt"
	"strings"
)

// AddPrimaryKey adds a primary key on columns. InnoDB stores a table in its
// primary key, so this rebuilds the table ordered on the key (the clustered
// index replaces the hidden row id).
func (e *Engine) AddPrimaryKey(ctx context.Context, table string, columns ...string) error {
	_, err := e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (%s)", table, strings.Join(columns, ", ")))
	if err != nil {
		return fmt.Errorf("primary key of %s: %w", table, err)
	}
	return nil
}

// AddForeignKey adds a foreign key from table.column to refTable.refColumn.
// InnoDB creates an index on column if none starts with it, and checks every
// row (with foreign_key_checks on, the server's default, the table is
// copied). The two columns must have the same type.
func (e *Engine) AddForeignKey(ctx context.Context, table, column, refTable, refColumn string) error {
	_, err := e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ADD FOREIGN KEY (%s) REFERENCES %s (%s)", table, column, refTable, refColumn))
	if err != nil {
		return fmt.Errorf("foreign key %s.%s: %w", table, column, err)
	}
	return nil
}
