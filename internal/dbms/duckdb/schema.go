package duckdb

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// CreateIndex builds an ART index (adaptive radix tree), DuckDB's only index
// structure; it stands in for B-tree.
func (e *Engine) CreateIndex(ctx context.Context, table, name, column string, kind dbms.IndexKind, unique bool) error {
	if kind == dbms.Hash {
		return fmt.Errorf("hash index on %s.%s: DuckDB has only ART (adaptive radix tree) indexes: %w", table, column, dbms.ErrNotSupported)
	}
	return e.SQLBase.CreateIndex(ctx, table, name, column, kind, unique)
}

// Analyze runs ANALYZE, which recomputes the table's distinct-count
// statistics (min/max zonemaps DuckDB keeps up to date by itself).
func (e *Engine) Analyze(ctx context.Context, table string) error {
	_, err := e.Exec(ctx, "ANALYZE "+table)
	return err
}
