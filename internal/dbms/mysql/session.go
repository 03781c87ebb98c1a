package mysql

import (
	"context"
	"errors"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var (
	_ dbms.Transactor   = (*Engine)(nil)
	_ dbms.Keys         = (*Engine)(nil)
	_ dbms.SizeReporter = (*Engine)(nil)
)

// isoNames are InnoDB's names of the dbms levels.
var isoNames = [...]string{
	dbms.RepeatableRead: "REPEATABLE READ",
	dbms.ReadCommitted:  "READ COMMITTED",
	dbms.Serializable:   "SERIALIZABLE",
}

// Begin starts a transaction at iso with START TRANSACTION, one round trip:
// the level is set for the session (SET SESSION TRANSACTION ISOLATION
// LEVEL) only when it differs from the last one, where the driver's BeginTx
// would send SET TRANSACTION before every transaction.
//
// InnoDB's REPEATABLE READ is not snapshot isolation for writes: an UPDATE
// locks the row and works on its latest committed version, so two sessions
// updating one row do not fail, the second waits for the first to end
// (a "lost update" is impossible, a "write skew" is not detected). A wait
// longer than innodb_lock_wait_timeout (default 50 s) fails with error 1205;
// a deadlock fails one of the transactions with error 1213. Both are
// dbms.Deadlock. 1205 ends the failed statement only, 1213 the whole
// transaction; call Rollback after either. SERIALIZABLE also takes shared
// locks on the rows it reads. With innodb_snapshot_isolation=ON (MariaDB
// 10.6.18 and later; a URL setting: mysql://...?innodb_snapshot_isolation=ON)
// REPEATABLE READ becomes snapshot isolation: updating a row changed since
// the snapshot fails with error 1020, dbms.Serialization.
//
// Statements of the transaction (ExecArgs, QueryInt) run on the session;
// unprepared ones are one round trip each because the connection
// interpolates arguments on the client (interpolateParams, see config).
func (e *Engine) Begin(ctx context.Context, iso dbms.Isolation) error {
	if e.InTransaction() {
		return errors.New("begin: a transaction is already open on this session")
	}
	if !e.isoSet || e.iso != iso {
		if _, err := e.Conn.ExecContext(ctx, "SET SESSION TRANSACTION ISOLATION LEVEL "+isoNames[iso]); err != nil {
			return fmt.Errorf("set isolation %s: %w", iso, classify(err))
		}
		e.iso, e.isoSet = iso, true
	}
	return e.BeginText(ctx, "START TRANSACTION")
}
