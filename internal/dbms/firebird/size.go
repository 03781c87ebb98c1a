package firebird

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// TableBytes reports the whole database, not the tables alone (Firebird has
// no per-table size short of gstat): MON$PAGES * MON$PAGE_SIZE, the pages
// the database file holds. The tables must exist.
//
// The monitoring tables are a snapshot taken once per transaction, and the
// driver's autocommit keeps its transaction with COMMIT RETAINING, so the
// figure is read in a transaction of its own (READ COMMITTED, which later
// autocommitted statements then inherit: the driver's own default). Inside a
// transaction begun by Begin it is refused rather than mixed into it.
func (e *Engine) TableBytes(ctx context.Context, tables ...string) (int64, error) {
	if e.InTransaction() {
		return 0, fmt.Errorf("size of %s: not inside a transaction (the monitoring snapshot would be the transaction's)", strings.Join(tables, ", "))
	}
	if len(tables) == 0 {
		return 0, nil
	}
	names := make([]string, len(tables))
	for i, t := range tables {
		names[i] = dbms.Quote(strings.ToUpper(t))
	}
	tx, err := e.Conn.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return 0, classify(err)
	}
	defer tx.Rollback()
	var found int
	err = tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM RDB$RELATIONS WHERE RDB$RELATION_NAME IN ("+strings.Join(names, ", ")+")").Scan(&found)
	if err != nil {
		return 0, classify(err)
	}
	if found != len(tables) {
		return 0, fmt.Errorf("size of %s: %d of the %d tables exist", strings.Join(tables, ", "), found, len(tables))
	}
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT MON$PAGES * MON$PAGE_SIZE FROM MON$DATABASE").Scan(&n); err != nil {
		return 0, fmt.Errorf("size of the database: %w", classify(err))
	}
	return n, classify(tx.Commit())
}
