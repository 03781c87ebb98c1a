package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// TableBytes sums pg_total_relation_size over tables: heap, TOAST, free
// space and visibility maps, and every index, as allocated on disk.
func (e *Engine) TableBytes(ctx context.Context, tables ...string) (int64, error) {
	if len(tables) == 0 {
		return 0, nil
	}
	parts := make([]string, len(tables))
	for i, t := range tables {
		parts[i] = "pg_total_relation_size(" + dbms.Quote(t) + ")"
	}
	var n int64
	if err := e.conn.QueryRow(ctx, "SELECT "+strings.Join(parts, " + ")).Scan(&n); err != nil {
		return 0, fmt.Errorf("size of %s: %w", strings.Join(tables, ", "), e.classify(err))
	}
	return n, nil
}
