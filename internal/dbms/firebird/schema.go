package firebird

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Statements outside a transaction run in the driver's autocommit mode, so
// every DDL statement below is committed before the next one uses its object
// (Firebird applies DDL at commit).

// exists asks the system tables whether an object is there; names are
// stored upper-cased because dbgauge never quotes identifiers.
func (e *Engine) exists(ctx context.Context, query, name string) (bool, error) {
	if err := e.Autocommit(ctx); err != nil {
		return false, err
	}
	var n int
	err := e.Conn.QueryRowContext(ctx, query, strings.ToUpper(name)).Scan(&n)
	if err != nil {
		return false, classify(err)
	}
	return n > 0, nil
}

// DropTable drops a table if it exists (Firebird 3 has no DROP ... IF EXISTS).
func (e *Engine) DropTable(ctx context.Context, name string) error {
	ok, err := e.exists(ctx, "SELECT COUNT(*) FROM RDB$RELATIONS WHERE RDB$RELATION_NAME = ?", name)
	if err != nil || !ok {
		return err
	}
	_, err = e.Exec(ctx, "DROP TABLE "+name)
	return err
}

// DropIndex drops an index if it exists; index names are database-wide.
func (e *Engine) DropIndex(ctx context.Context, table, name string) error {
	ok, err := e.exists(ctx, "SELECT COUNT(*) FROM RDB$INDICES WHERE RDB$INDEX_NAME = ?", name)
	if err != nil || !ok {
		return err
	}
	_, err = e.Exec(ctx, "DROP INDEX "+name)
	return err
}

// CreateIndex builds a B-tree index, the only kind Firebird has.
func (e *Engine) CreateIndex(ctx context.Context, table, name, column string, kind dbms.IndexKind, unique bool) error {
	if kind == dbms.Hash {
		return fmt.Errorf("hash index on %s.%s: %w (Firebird has only B-tree indexes)", table, column, dbms.ErrNotSupported)
	}
	return e.SQLBase.CreateIndex(ctx, table, name, column, kind, unique)
}

// Cluster creates an ascending index on column and does nothing else:
// Firebird has no clustered storage, a table's rows stay where they were
// inserted. The Wisconsin specification asks for the clustered relations
// to be stored in key order, and the generator emits rows in key order, so
// loading in generation order has already given that order; the index is
// what the queries need.
func (e *Engine) Cluster(ctx context.Context, t dbms.Table, name, column string) error {
	_, err := e.Exec(ctx, fmt.Sprintf("CREATE ASCENDING INDEX %s ON %s (%s)", name, t.Name, column))
	return err
}

// CreateTableAs creates the table from cols and fills it with INSERT ...
// SELECT, as Firebird has no CREATE TABLE AS.
func (e *Engine) CreateTableAs(ctx context.Context, name, query string, cols []dbms.Column) error {
	if err := e.CreateTable(ctx, dbms.Table{Name: name, Columns: cols}); err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	if _, err := e.Exec(ctx, fmt.Sprintf("INSERT INTO %s %s", name, query)); err != nil {
		return fmt.Errorf("fill %s: %w", name, err)
	}
	return nil
}

// Analyze recomputes the selectivity of every index on table, the only
// optimizer statistics Firebird keeps.
func (e *Engine) Analyze(ctx context.Context, table string) error {
	rows, err := e.QueryRows(ctx, "SELECT TRIM(RDB$INDEX_NAME) FROM RDB$INDICES WHERE RDB$RELATION_NAME = "+
		dbms.Quote(strings.ToUpper(table)))
	if err != nil {
		return err
	}
	for _, r := range rows {
		if _, err := e.Exec(ctx, "SET STATISTICS INDEX "+r[0]); err != nil {
			return fmt.Errorf("analyze %s: %w", table, err)
		}
	}
	return nil
}
