package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// TableBytes reports the pages of tables and their indexes from the dbstat
// table where SQLite was built with it (go-sqlite3's build tag
// sqlite_dbstat); otherwise, as go-sqlite3 is built by default, it reports
// the whole database: page_count * page_size, every table, index and free
// page of the file (WAL frames not yet checkpointed included).
func (e *Engine) TableBytes(ctx context.Context, tables ...string) (int64, error) {
	if len(tables) == 0 {
		return 0, nil
	}
	names := make([]string, len(tables))
	for i, t := range tables {
		names[i] = dbms.Quote(t)
	}
	in := strings.Join(names, ", ")
	var found int
	if err := e.Conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name IN ("+in+")").Scan(&found); err != nil {
		return 0, classify(err)
	}
	if found != len(tables) {
		return 0, fmt.Errorf("size of %s: %d of the %d tables exist", strings.Join(tables, ", "), found, len(tables))
	}
	var n int64
	err := e.Conn.QueryRowContext(ctx, "SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name IN ("+in+"))").Scan(&n)
	if err == nil {
		return n, nil
	}
	if !strings.Contains(err.Error(), "no such table: dbstat") {
		return 0, fmt.Errorf("size of %s: %w", strings.Join(tables, ", "), classify(err))
	}
	err = e.Conn.QueryRowContext(ctx, "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()").Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("size of the database: %w", classify(err))
	}
	return n, nil
}
