package mysql

import (
	"context"
	"github.com/dbgauge/dbgauge/internal/dbms"
)

// AddPrimaryKey adds a primary key on columns. InnoDB stores a table in its
// primary key, so this rebuilds the table ordered on the key (the clustered
// index replaces the hidden row id).
func (e *Engine) AddPrimaryKey(ctx context.Context, table string, columns ...string) error {
	return dbms.AddPrimaryKeySQL(ctx, e, table, columns...)
}

// AddForeignKey adds a foreign key from table.column to refTable.refColumn.
// InnoDB creates an index on column if none starts with it, and checks every
// row (with foreign_key_checks on, the server's default, the table is
// copied). The two columns must have the same type.
func (e *Engine) AddForeignKey(ctx context.Context, table, column, refTable, refColumn string) error {
	return dbms.AddForeignKeySQL(ctx, e, table, column, refTable, refColumn)
}
