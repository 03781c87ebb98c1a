package firebird

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
)

// AddPrimaryKey adds a primary key constraint PK_<table> on columns; Firebird
// builds its unique ascending index (named after the constraint). Firebird
// takes only NOT NULL columns into a primary key, where PostgreSQL and
// MariaDB add the NOT NULL themselves, so the columns get it first (a
// column holding a NULL makes that step fail).
func (e *Engine) AddPrimaryKey(ctx context.Context, table string, columns ...string) error {
	for _, c := range columns {
		if _, err := e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s SET NOT NULL", table, c)); err != nil {
			return fmt.Errorf("primary key of %s: column %s NOT NULL: %w", table, c, err)
		}
	}
	name := constraintName("PK", table)
	_, err := e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s PRIMARY KEY (%s)", table, name, strings.Join(columns, ", ")))
	if err != nil {
		return fmt.Errorf("primary key of %s: %w", table, err)
	}
	return nil
}

// AddForeignKey adds a foreign key constraint FK_<table>_<column> from
// table.column to refTable.refColumn, with its index; Firebird checks every
// row. Adding it needs the tables not to be in use by other attachments
// ("object in use").
func (e *Engine) AddForeignKey(ctx context.Context, table, column, refTable, refColumn string) error {
	name := constraintName("FK", table, column)
	_, err := e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s FOREIGN KEY (%s) REFERENCES %s (%s)", table, name, column, refTable, refColumn))
	if err != nil {
		return fmt.Errorf("foreign key %s.%s: %w", table, column, err)
	}
	return nil
}

// maxName is Firebird 3's identifier limit in bytes.
const maxName = 31

// constraintName joins prefix and parts with _ in upper case; a name longer
// than Firebird allows keeps its first 22 bytes and ends with _ and eight
// hex digits of a hash of the whole name, so different long names stay
// different.
func constraintName(prefix string, parts ...string) string {
	name := strings.ToUpper(prefix + "_" + strings.Join(parts, "_"))
	if len(name) <= maxName {
		return name
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%s_%08X", name[:maxName-9], h.Sum32())
}
