package postgres

import (
	"context"
	"github.com/dbgauge/dbgauge/internal/dbms"
)

// AddPrimaryKey adds a primary key on columns: PostgreSQL builds its unique
// B-tree index (table_pkey) and checks the rows for duplicates and NULLs.
func (e *Engine) AddPrimaryKey(ctx context.Context, table string, columns ...string) error {
	return dbms.AddPrimaryKeySQL(ctx, e, table, columns...)
}

// AddForeignKey adds a foreign key from table.column to refTable.refColumn
// (which must be its primary key or unique); PostgreSQL checks every row.
func (e *Engine) AddForeignKey(ctx context.Context, table, column, refTable, refColumn string) error {
	return dbms.AddForeignKeySQL(ctx, e, table, column, refTable, refColumn)
}
