package duckdb

import (
	"context"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// value returns the first column of the first row of q.
func (e *Engine) value(ctx context.Context, q string) (string, error) {
	return dbms.FirstValue(ctx, e, q)
}
