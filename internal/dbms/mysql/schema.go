package mysql

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// CreateTable creates t as an InnoDB table whatever the server's
// default_storage_engine, so results always describe InnoDB.
func (e *Engine) CreateTable(ctx context.Context, t dbms.Table) error {
	return e.createTable(ctx, t, "")
}

// createTable creates t as an InnoDB table, with the columns' definitions
// followed by extra (", PRIMARY KEY (...)" or nothing).
func (e *Engine) createTable(ctx context.Context, t dbms.Table, extra string) error {
	_, err := e.Exec(ctx, fmt.Sprintf("CREATE TABLE %s (%s%s) ENGINE=InnoDB", t.Name, e.ColumnList(t.Columns), extra))
	return err
}

// typeName is the standard types but for Timestamp, which is DATETIME: a
// TIMESTAMP converts through the session's time zone, ends in 2038, and on
// servers without explicit_defaults_for_timestamp (MariaDB before 10.10,
// MySQL 5.7) is NOT NULL with ON UPDATE CURRENT_TIMESTAMP, so a loaded NULL
// would become the current time and an UPDATE of another column would
// rewrite it. DATETIME is the date and time as given, as in the other engines.
func typeName(c dbms.Column) string {
	if c.Type == dbms.Timestamp {
		return "DATETIME"
	}
	return dbms.StandardType(c)
}

// CreateIndex builds a B-tree index. InnoDB accepts USING HASH and silently
// builds a B-tree instead, so a hash index is refused rather than faked.
func (e *Engine) CreateIndex(ctx context.Context, table, name, column string, kind dbms.IndexKind, unique bool) error {
	if kind == dbms.Hash {
		return fmt.Errorf("hash index %s on %s: %w: InnoDB has no hash index (USING HASH is accepted but builds a B-tree; the adaptive hash index is internal and automatic)", name, table, dbms.ErrNotSupported)
	}
	u := ""
	if unique {
		u = "UNIQUE "
	}
	_, err := e.Exec(ctx, fmt.Sprintf("CREATE %sINDEX %s ON %s (%s)", u, name, table, column))
	return err
}

// Cluster makes column t's primary key. InnoDB stores every table as a
// B-tree on its primary key (the clustered index), so ADD PRIMARY KEY
// rebuilds the table in column order and keeps it so under later writes. The
// index is therefore named PRIMARY, whatever name the caller gave; name is
// kept as the key's comment so DropIndex(name) finds it from any session.
func (e *Engine) Cluster(ctx context.Context, t dbms.Table, name, column string) error {
	_, err := e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (%s) COMMENT %s", t.Name, column, dbms.Quote(clusterTag+name)))
	return err
}

// clusterTag marks a primary key made by Cluster in its comment.
const clusterTag = "dbgauge:"

// DropIndex drops index name of table. The index a Cluster call named is
// the primary key: dropping it drops the primary key (the table is rebuilt
// on InnoDB's hidden row id).
func (e *Engine) DropIndex(ctx context.Context, table, name string) error {
	if strings.EqualFold(name, "PRIMARY") {
		_, err := e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s DROP PRIMARY KEY", table))
		return err
	}
	_, err := e.Exec(ctx, fmt.Sprintf("DROP INDEX %s ON %s", name, table))
	if err == nil || !isNumber(err, erCantDropFieldOrKey) {
		return err
	}
	clustered, qerr := e.QueryValue(ctx, fmt.Sprintf(
		"SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = %s AND INDEX_NAME = 'PRIMARY' AND INDEX_COMMENT = %s",
		dbms.Quote(table), dbms.Quote(clusterTag+name)))
	if qerr != nil || clustered == "0" {
		return err
	}
	_, err = e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s DROP PRIMARY KEY", table))
	return err
}

// CreateTableAs stores a query result in a new InnoDB table.
func (e *Engine) CreateTableAs(ctx context.Context, name, query string, cols []dbms.Column) error {
	_, err := e.Exec(ctx, fmt.Sprintf("CREATE TABLE %s ENGINE=InnoDB AS %s", name, query))
	return err
}

// Analyze refreshes InnoDB's statistics of table. ANALYZE TABLE reports
// failures as result rows, not as errors, so the rows are checked.
func (e *Engine) Analyze(ctx context.Context, table string) error {
	rows, err := e.QueryRows(ctx, "ANALYZE TABLE "+table)
	if err != nil {
		return err
	}
	for _, r := range rows {
		// Columns: Table, Op, Msg_type, Msg_text.
		if len(r) == 4 && strings.EqualFold(r[2], "error") {
			return dbms.Wrap(dbms.Other, fmt.Errorf("analyze %s: %s", table, r[3]))
		}
	}
	return nil
}

var _ dbms.KeyedTables = (*Engine)(nil)

// CreateTableWithKey creates t with its primary key on columns. InnoDB
// keeps a table in its primary key: ALTER TABLE ADD PRIMARY KEY after the
// load copies every row into a new clustered index (at 4 warehouses of
// the orders workload, MariaDB 10.11: 6.2 s of keys after a 9.0 s load),
// while rows loaded in key order into the keyed table append to its
// B-tree (the same load took the server 11.6 to 12.0 s of CPU keyed,
// 16.5 s with the keys added after it; the whole population 12 to 19 s
// against 21 to 28 s, five of each on a busy machine).
func (e *Engine) CreateTableWithKey(ctx context.Context, t dbms.Table, columns []string) error {
	return e.createTable(ctx, t, ", PRIMARY KEY ("+strings.Join(columns, ", ")+")")
}
