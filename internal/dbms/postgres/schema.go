package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// CreateTable creates t; names are left unquoted, so PostgreSQL folds them
// to lower case as it does in the workloads' queries.
func (e *Engine) CreateTable(ctx context.Context, t dbms.Table) error {
	cols := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = c.Name + " " + dbms.StandardType(c)
	}
	_, err := e.Exec(ctx, fmt.Sprintf("CREATE TABLE %s (%s)", t.Name, strings.Join(cols, ", ")))
	return err
}

// DropTable drops a table if it exists.
func (e *Engine) DropTable(ctx context.Context, name string) error {
	_, err := e.Exec(ctx, "DROP TABLE IF EXISTS "+name)
	return err
}

// CreateIndex builds a B-tree or hash index. PostgreSQL's hash access method
// has no unique indexes, so a unique hash index is not supported.
func (e *Engine) CreateIndex(ctx context.Context, table, name, column string, kind dbms.IndexKind, unique bool) error {
	u := ""
	if unique {
		u = "UNIQUE "
	}
	using := ""
	if kind == dbms.Hash {
		if unique {
			return fmt.Errorf("unique hash index %s: %w (PostgreSQL hash indexes cannot enforce uniqueness)", name, dbms.ErrNotSupported)
		}
		using = " USING hash"
	}
	_, err := e.Exec(ctx, fmt.Sprintf("CREATE %sINDEX %s ON %s%s (%s)", u, name, table, using, column))
	return err
}

// DropIndex drops an index by name (index names are per schema in PostgreSQL).
func (e *Engine) DropIndex(ctx context.Context, table, name string) error {
	_, err := e.Exec(ctx, "DROP INDEX IF EXISTS "+name)
	return err
}

// Cluster indexes column and rewrites the table in that index's order.
// PostgreSQL has no clustered storage: CLUSTER orders the heap once, and
// rows written later are not kept in order. ANALYZE follows because the
// rewrite makes the planner's correlation statistic for column stale.
func (e *Engine) Cluster(ctx context.Context, t dbms.Table, name, column string) error {
	for _, q := range []string{
		fmt.Sprintf("CREATE INDEX %s ON %s (%s)", name, t.Name, column),
		fmt.Sprintf("CLUSTER %s USING %s", t.Name, name),
		"ANALYZE " + t.Name,
	} {
		if _, err := e.Exec(ctx, q); err != nil {
			return fmt.Errorf("cluster %s on %s: %w", t.Name, column, err)
		}
	}
	return nil
}

// CreateTableAs stores a query's result; PostgreSQL takes the column types
// from the query, so cols is not needed.
func (e *Engine) CreateTableAs(ctx context.Context, name, query string, cols []dbms.Column) error {
	_, err := e.Exec(ctx, fmt.Sprintf("CREATE TABLE %s AS %s", name, query))
	return err
}

// Analyze refreshes the planner statistics of table.
func (e *Engine) Analyze(ctx context.Context, table string) error {
	_, err := e.Exec(ctx, "ANALYZE "+table)
	return err
}
