package firebird

import (
	"context"
	"database/sql"

	"github.com/nakagami/firebirdsql"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var (
	_ dbms.Transactor   = (*Engine)(nil)
	_ dbms.Keys         = (*Engine)(nil)
	_ dbms.SizeReporter = (*Engine)(nil)
)

// txOptions map dbms levels to the transaction parameter blocks the driver
// can send. Firebird takes the isolation only as a TPB at transaction start
// (SET TRANSACTION is isql's, not the wire protocol's), and the driver
// builds TPBs from sql.TxOptions alone:
//
//   - repeatable-read: SNAPSHOT (isc_tpb_concurrency) WAIT. The driver has
//     no SNAPSHOT NO WAIT, so an update of a row another active transaction
//     changed waits for that one to end; if it committed, the update fails
//     with "update conflicts with concurrent update" (also at once when the
//     change was committed after this snapshot): dbms.Serialization, as
//     PostgreSQL's REPEATABLE READ behaves. A real deadlock is found after
//     the server's DeadlockTimeout (10 s by default) and reported with the
//     same status vector as an update conflict, so it is a
//     dbms.Serialization too (docs/retries.md).
//   - read-committed: READ COMMITTED RECORD_VERSION NO WAIT: a row another
//     active transaction changed fails at once with an update conflict,
//     dbms.Serialization; rows committed meanwhile are simply read and
//     updated.
//   - serializable: SNAPSHOT too. Firebird's SNAPSHOT already prevents
//     every phenomenon the SQL standard's SERIALIZABLE names (dirty and
//     non-repeatable reads, phantoms), though not write skew. Its other
//     level, SNAPSHOT TABLE STABILITY, reserves each table it touches for
//     the whole transaction: TPC-B's transactions would run one at a time,
//     and it conflicts with any other transaction that wrote the tables,
//     including another attachment's autocommit statement.
var txOptions = [...]*sql.TxOptions{
	dbms.RepeatableRead: {Isolation: sql.LevelRepeatableRead},
	dbms.ReadCommitted:  {Isolation: firebirdsql.LevelReadCommittedNoWait},
	dbms.Serializable:   {Isolation: sql.LevelRepeatableRead},
}

// Begin starts a transaction at iso (see txOptions): one op_transaction
// round trip. Statements of the transaction, prepared or not, run on the
// session, where the driver uses the transaction just begun.
//
// Statements outside a transaction run in the driver's autocommit mode,
// which after Commit or Rollback would go on with the last transaction's
// parameters (see resetAutocommit).
func (e *Engine) Begin(ctx context.Context, iso dbms.Isolation) error {
	return e.BeginTx(ctx, txOptions[iso])
}

// resetAutocommit gives the driver's autocommit mode back its default
// parameters, READ COMMITTED WAIT, by beginning and committing a transaction
// with them (two round trips). SQLBase runs it before the first statement
// outside a transaction after one ended, not after every transaction.
//
// Without it the driver would start its autocommit transactions with the
// parameters of the transaction that ended: a SNAPSHOT or TABLE STABILITY
// per statement instead of READ COMMITTED. (The patched driver commits
// each autocommit statement for good, third_party/firebirdsql/PATCHES.md;
// upstream kept the autocommit transaction open with COMMIT RETAINING,
// which held back garbage collection for the whole database.)
func (e *Engine) resetAutocommit(ctx context.Context) error {
	tx, err := e.Conn.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return err
	}
	return tx.Commit()
}
