package postgres

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// SetFillFactor sets the table's fillfactor storage parameter.
func (e *Engine) SetFillFactor(ctx context.Context, table string, percent int) error {
	if _, err := e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s SET (fillfactor = %d)", table, percent)); err != nil {
		return fmt.Errorf("fillfactor of %s: %w", table, err)
	}
	return nil
}

// SetUnlogged makes the table unlogged (cheap on an empty table: the
// rewrite copies nothing).
func (e *Engine) SetUnlogged(ctx context.Context, table string) error {
	if _, err := e.Exec(ctx, "ALTER TABLE "+table+" SET UNLOGGED"); err != nil {
		return fmt.Errorf("unlogged %s: %w", table, err)
	}
	return nil
}

// VacuumAnalyze runs VACUUM ANALYZE on the table.
func (e *Engine) VacuumAnalyze(ctx context.Context, table string) error {
	if _, err := e.Exec(ctx, "VACUUM ANALYZE "+table); err != nil {
		return fmt.Errorf("vacuum %s: %w", table, err)
	}
	return nil
}

// SetNotNull declares the column NOT NULL.
func (e *Engine) SetNotNull(ctx context.Context, table, column string) error {
	if _, err := e.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s SET NOT NULL", table, column)); err != nil {
		return fmt.Errorf("%s.%s NOT NULL: %w", table, column, err)
	}
	return nil
}

var (
	_ dbms.NotNuller    = (*Engine)(nil)
	_ dbms.FillFactorer = (*Engine)(nil)
	_ dbms.Unlogger     = (*Engine)(nil)
	_ dbms.Vacuumer     = (*Engine)(nil)
)
