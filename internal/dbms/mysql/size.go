package mysql

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// TableBytes is data_length + index_length of the tables in
// information_schema.TABLES: the pages InnoDB's clustered and secondary
// indexes occupy (free space inside the tablespace not counted). InnoDB
// keeps these figures with its persistent statistics, refreshed only after
// about a tenth of a table changed, so TableBytes runs ANALYZE TABLE first:
// that recounts the index pages (it samples rows for the optimizer, but the
// page counts are exact).
func (e *Engine) TableBytes(ctx context.Context, tables ...string) (int64, error) {
	if len(tables) == 0 {
		return 0, nil
	}
	names := make([]string, len(tables))
	for i, t := range tables {
		if err := e.Analyze(ctx, t); err != nil {
			return 0, fmt.Errorf("size of %s: %w", t, err)
		}
		names[i] = dbms.Quote(t)
	}
	var n int64
	err := e.Conn.QueryRowContext(ctx, "SELECT COALESCE(SUM(data_length + index_length), 0) FROM information_schema.TABLES"+
		" WHERE table_schema = DATABASE() AND table_name IN ("+strings.Join(names, ", ")+")").Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("size of %s: %w", strings.Join(tables, ", "), classify(err))
	}
	return n, nil
}
