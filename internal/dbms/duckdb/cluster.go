package duckdb

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Cluster makes t physically ordered on column, with an ART index named name
// on it for point lookups.
//
// DuckDB has no clustered index. What it has is storage in insertion order,
// in row groups whose zonemaps (min/max per column) let a range scan skip
// every row group outside the range: a table stored in column order is, for
// range scans, a clustered table. So Cluster rebuilds t in column order
// unless it is already stored that way, keeping its other indexes, and then
// makes sure the index exists.
func (e *Engine) Cluster(ctx context.Context, t dbms.Table, name, column string) error {
	indexes, err := e.indexes(ctx, t.Name)
	if err != nil {
		return fmt.Errorf("cluster %s: %w", t.Name, err)
	}
	ordered, err := e.ordered(ctx, t.Name, column)
	if err != nil {
		return fmt.Errorf("cluster %s: %w", t.Name, err)
	}
	if !ordered {
		if err := e.rebuildOrdered(ctx, t.Name, column); err != nil {
			return fmt.Errorf("cluster %s: %w", t.Name, err)
		}
		// Dropping the old table dropped its indexes: recreate them.
		for _, ix := range indexes {
			if _, err := e.Exec(ctx, ix.sql); err != nil {
				return fmt.Errorf("cluster %s: recreate index %s: %w", t.Name, ix.name, err)
			}
		}
	}
	if !hasIndex(indexes, name) {
		if err := e.CreateIndex(ctx, t.Name, name, column, dbms.BTree, false); err != nil {
			return fmt.Errorf("cluster %s: %w", t.Name, err)
		}
	}
	if e.path != "" {
		// Write the new table out and free the old one's blocks now, not
		// during a later measured transaction's commit.
		if _, err := e.Exec(ctx, "CHECKPOINT"); err != nil {
			return fmt.Errorf("cluster %s: %w", t.Name, err)
		}
	}
	return nil
}

// ordered reports whether table is stored in column order: rowid is the
// position of a row in storage.
func (e *Engine) ordered(ctx context.Context, table, column string) (bool, error) {
	v, err := e.value(ctx, fmt.Sprintf(
		"SELECT count(*) FROM (SELECT %[1]s < lag(%[1]s) OVER (ORDER BY rowid) AS back FROM %[2]s) WHERE back", column, table))
	if err != nil {
		return false, err
	}
	return v == "0", nil
}

// rebuildOrdered replaces table with a copy sorted on column, in one
// transaction so a failure leaves the original table.
func (e *Engine) rebuildOrdered(ctx context.Context, table, column string) error {
	// With preserve_insertion_order off, DuckDB may insert the sorted rows in
	// any order: switch it on for the rebuild, back off afterwards.
	keep, err := e.value(ctx, "SELECT current_setting('preserve_insertion_order')")
	if err != nil {
		return err
	}
	if keep != "true" {
		if _, err := e.Exec(ctx, "SET preserve_insertion_order = true"); err != nil {
			return err
		}
		defer e.Exec(context.WithoutCancel(ctx), "SET preserve_insertion_order = "+keep)
	}
	tmp := table + "__dbgauge_cluster"
	steps := []string{
		"BEGIN TRANSACTION",
		fmt.Sprintf("CREATE TABLE %s AS SELECT * FROM %s ORDER BY %s", tmp, table, column),
		"DROP TABLE " + table,
		fmt.Sprintf("ALTER TABLE %s RENAME TO %s", tmp, unqualified(table)),
		"COMMIT",
	}
	for _, s := range steps {
		if _, err := e.Exec(ctx, s); err != nil {
			e.Exec(context.WithoutCancel(ctx), "ROLLBACK")
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

type index struct{ name, sql string }

// indexes lists the indexes of table with the statements that create them.
func (e *Engine) indexes(ctx context.Context, table string) ([]index, error) {
	schema, name := splitName(table)
	where := "schema_name = current_schema()"
	if schema != "" {
		where = "schema_name = " + dbms.Quote(schema)
	}
	rows, err := e.QueryRows(ctx, fmt.Sprintf(
		"SELECT index_name, sql FROM duckdb_indexes() WHERE database_name = current_database() AND %s AND table_name = %s ORDER BY index_name",
		where, dbms.Quote(name)))
	if err != nil {
		return nil, err
	}
	out := make([]index, len(rows))
	for i, r := range rows {
		out[i] = index{name: r[0], sql: r[1]}
	}
	return out, nil
}

func hasIndex(ixs []index, name string) bool {
	for _, ix := range ixs {
		if strings.EqualFold(ix.name, name) {
			return true
		}
	}
	return false
}

// unqualified drops a schema prefix: ALTER TABLE ... RENAME TO takes a bare name.
func unqualified(table string) string {
	_, t := splitName(table)
	return t
}
