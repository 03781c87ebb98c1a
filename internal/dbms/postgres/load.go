package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

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
	src := &copySource{rows: rows, row: make([]any, len(t.Columns)), times: t.ColumnsOf(dbms.Timestamp)}
	n, err := e.conn.CopyFrom(ctx, tableIdent(t.Name), cols, src)
	if err != nil {
		return n, fmt.Errorf("copy into %s: %w", t.Name, e.classify(err))
	}
	return n, nil
}

// copySource adapts a dbms.RowSource to pgx.CopyFromSource. The row slice is
// reused: pgx encodes each row before asking for the next.
//
// Values go to pgx as the source gives them (pgx encodes a Decimal's text
// as numeric exactly), but for times: pgx stores a time.Time's reading in
// its own zone into a timestamp column, and the contract is its reading in
// UTC.
type copySource struct {
	rows  dbms.RowSource
	row   []any
	times []int // the Timestamp columns
}

func (s *copySource) Next() bool {
	if !s.rows.Next(s.row) {
		return false
	}
	for _, i := range s.times {
		if v, ok := s.row[i].(time.Time); ok {
			s.row[i] = v.UTC()
		}
	}
	return true
}

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

var _ dbms.ConcurrentLoader = (*Engine)(nil)

// LoadSessions: COPY into one table from several sessions runs in
// parallel server processes, each parsing and writing its own rows. Past
// a handful of sessions they queue on the lock that extends the table's
// file (PostgreSQL 15 extends it a page at a time); the bound is that
// limit, not this machine's cores, which a remote server's are not. Eight
// is a judgement, not a measurement: this project's machines have two
// cores, on which two sessions are all a load can use.
func (e *Engine) LoadSessions() int { return 8 }
