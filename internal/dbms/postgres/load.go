package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Load fills t through COPY ... FROM STDIN in binary format, PostgreSQL's
// bulk path. pgx encodes rows into 64 KiB messages as it reads the source
// and sends each one before reading more, so memory stays constant at any
// row count.
func (e *Engine) Load(ctx context.Context, t dbms.Table, rows dbms.RowSource) (int64, error) {
	cols := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = foldName(c.Name)
	}
	src := &copySource{rows: rows, row: make([]any, len(t.Columns))}
	n, err := e.conn.CopyFrom(ctx, tableIdent(t.Name), cols, src)
	if err != nil {
		return n, fmt.Errorf("copy into %s: %w", t.Name, e.classify(err))
	}
	return n, nil
}

// copySource adapts a dbms.RowSource to pgx.CopyFromSource. The row slice is
// reused: pgx encodes each row before asking for the next.
type copySource struct {
	rows dbms.RowSource
	row  []any
}

func (s *copySource) Next() bool             { return s.rows.Next(s.row) }
func (s *copySource) Values() ([]any, error) { return s.row, nil }
func (s *copySource) Err() error             { return nil }

// tableIdent splits schema.table: pgx quotes each part, so they are folded to
// lower case first, as PostgreSQL folds the unquoted names of CreateTable.
func tableIdent(name string) pgx.Identifier {
	parts := strings.Split(name, ".")
	for i := range parts {
		parts[i] = foldName(parts[i])
	}
	return pgx.Identifier(parts)
}

// foldName is what PostgreSQL makes of an unquoted identifier.
func foldName(s string) string { return strings.ToLower(s) }
