package duckdb

import (
	"context"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var _ dbms.SpillDirectory = (*Engine)(nil)

// SpillDirectory is temp_directory, where DuckDB spills what does not fit
// memory_limit ("" for an in-memory database without one).
func (e *Engine) SpillDirectory(ctx context.Context) (string, error) {
	return dbms.FirstValue(ctx, e, "SELECT current_setting('temp_directory')")
}
