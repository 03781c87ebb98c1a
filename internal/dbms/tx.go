package dbms

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// txSession is the Transactor state of one pinned connection: the open
// transaction and the statements prepared on the connection.
//
// Statements always run on the pinned connection, also inside a
// transaction: every driver here keeps the transaction in the session (the
// server's, or in Firebird's driver the connection's current transaction
// handle), so a statement prepared once on the connection serves every later
// transaction. database/sql's own route, tx.StmtContext, would build a new
// Stmt per call and prepare again for statements prepared on a Conn.
type txSession struct {
	// open: a transaction is open, begun by text (BEGIN) or through tx.
	open bool
	// tx is set when the adapter began through database/sql (Firebird,
	// whose isolation is a transaction parameter block, not SQL).
	tx *sql.Tx
	// failed is the first error of a statement of the open transaction:
	// the engine may have ended the transaction already (DuckDB, a MariaDB
	// deadlock), so Commit refuses and a ROLLBACK may find none.
	failed error
	// stmts are the statements prepared on Conn, by their text.
	stmts map[string]*sql.Stmt
	// reset: a transaction ended since ResetAutocommit last ran.
	reset bool
}

// Begin starts a transaction with a plain BEGIN at the engine's default
// isolation. Adapters override it to honour iso in their dialect.
func (b *SQLBase) Begin(ctx context.Context, iso Isolation) error {
	return b.BeginText(ctx, "BEGIN")
}

// InTransaction reports whether a transaction begun by Begin is open.
func (b *SQLBase) InTransaction() bool { return b.session.open }

// BeginText starts a transaction with the statement begin (BEGIN, START
// TRANSACTION ...), one round trip and no allocation beyond the driver's:
// database/sql's BeginTx would add a goroutine and a context per
// transaction. Beginning while a transaction is open is refused (MariaDB
// would silently commit the open one).
func (b *SQLBase) BeginText(ctx context.Context, begin string) error {
	if b.session.open {
		return errors.New("begin: a transaction is already open on this session")
	}
	if _, err := b.Conn.ExecContext(ctx, begin); err != nil {
		return b.wrap(err)
	}
	b.session.open, b.session.failed = true, nil
	return nil
}

// BeginTx starts a transaction through database/sql with opts, for drivers
// that take the isolation level only that way.
func (b *SQLBase) BeginTx(ctx context.Context, opts *sql.TxOptions) error {
	if b.session.open {
		return errors.New("begin: a transaction is already open on this session")
	}
	tx, err := b.Conn.BeginTx(ctx, opts)
	if err != nil {
		return b.wrap(err)
	}
	b.session.tx, b.session.open, b.session.failed = tx, true, nil
	return nil
}

// Commit commits the open transaction. After a failed statement it rolls
// back instead and returns that statement's error, class included: DuckDB
// would answer COMMIT of its aborted transaction with success, and MariaDB
// has rolled back a deadlock victim already. A failed COMMIT may leave the
// transaction open (SQLite's busy database): call Rollback after it.
func (b *SQLBase) Commit(ctx context.Context) error {
	s := &b.session
	if !s.open {
		return errors.New("commit: no transaction is open on this session")
	}
	if first := s.failed; first != nil {
		b.Rollback(ctx)
		return fmt.Errorf("commit: rolled back, a statement of the transaction failed: %w", first)
	}
	if s.tx != nil {
		// database/sql ends its Tx whatever the outcome.
		err := s.tx.Commit()
		s.tx, s.open = nil, false
		s.reset = b.ResetAutocommit != nil
		return b.wrap(err)
	}
	if _, err := b.Conn.ExecContext(ctx, "COMMIT"); err != nil {
		err = b.wrap(err)
		s.failed = err
		return err
	}
	s.open = false
	s.reset = b.ResetAutocommit != nil
	return nil
}

// Autocommit runs ResetAutocommit if a transaction ended since it last ran.
// Statements outside a transaction call it first; adapter code that uses
// Conn directly outside a transaction should too.
func (b *SQLBase) Autocommit(ctx context.Context) error {
	if !b.session.reset || b.session.open {
		return nil
	}
	b.session.reset = false
	if err := b.ResetAutocommit(ctx); err != nil {
		return b.wrap(fmt.Errorf("reset autocommit after a transaction: %w", err))
	}
	return nil
}

// Rollback ends the open transaction without effect; without one it does
// nothing. After a failed statement or COMMIT the engine may have rolled
// back already, so its complaint that no transaction is active is not an
// error then (a lost connection still is). A context that has ended does not
// stop the ROLLBACK: a transaction left open would be committed by MariaDB's
// next START TRANSACTION.
func (b *SQLBase) Rollback(ctx context.Context) error {
	s := &b.session
	if !s.open {
		return nil
	}
	failed := s.failed != nil
	s.open, s.failed = false, nil
	s.reset = b.ResetAutocommit != nil
	var err error
	if s.tx != nil {
		err = s.tx.Rollback()
		s.tx = nil
		if errors.Is(err, sql.ErrTxDone) {
			err = nil
		}
	} else {
		if ctx.Err() != nil {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
		}
		_, err = b.Conn.ExecContext(ctx, "ROLLBACK")
	}
	err = b.wrap(err)
	if err != nil && failed && Classify(err) != ConnectionLost {
		return nil
	}
	return err
}

// Prepare prepares stmt on the pinned connection once; ExecArgs and
// QueryInt use it whenever they are given the same text.
func (b *SQLBase) Prepare(ctx context.Context, stmt string) error {
	if _, ok := b.session.stmts[stmt]; ok {
		return nil
	}
	ps, err := b.Conn.PrepareContext(ctx, stmt)
	if err != nil {
		return b.wrap(fmt.Errorf("prepare %s: %w", stmt, err))
	}
	if b.session.stmts == nil {
		b.session.stmts = map[string]*sql.Stmt{}
	}
	b.session.stmts[stmt] = ps
	return nil
}

// ExecArgs runs stmt with args, prepared if Prepare saw it, and returns the
// rows it affected (-1 when the driver does not say). It does not arm
// Interrupt: transaction statements are short, and the watch would cost an
// allocation per call.
func (b *SQLBase) ExecArgs(ctx context.Context, stmt string, args ...any) (int64, error) {
	if b.session.reset {
		if err := b.Autocommit(ctx); err != nil {
			return 0, err
		}
	}
	var res sql.Result
	var err error
	ps := b.session.stmts[stmt]
	switch tx := b.session.tx; {
	case tx != nil && ps != nil:
		// Inside a database/sql transaction (Firebird) a statement must run
		// on the Tx: on the Conn it would run in the driver's autocommit
		// transaction, outside the one the caller committed.
		res, err = tx.StmtContext(ctx, ps).ExecContext(ctx, args...)
	case tx != nil:
		res, err = tx.ExecContext(ctx, stmt, args...)
	case ps != nil:
		res, err = ps.ExecContext(ctx, args...)
	default:
		res, err = b.Conn.ExecContext(ctx, stmt, args...)
	}
	if err != nil {
		return 0, b.fail(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return -1, nil
	}
	return n, nil
}

// QueryInt runs stmt with args and returns the first column of its first
// row as an integer, ErrNoRows when there is no row.
func (b *SQLBase) QueryInt(ctx context.Context, stmt string, args ...any) (int64, error) {
	if b.session.reset {
		if err := b.Autocommit(ctx); err != nil {
			return 0, err
		}
	}
	var row *sql.Row
	ps := b.session.stmts[stmt]
	switch tx := b.session.tx; {
	case tx != nil && ps != nil: // see ExecArgs
		row = tx.StmtContext(ctx, ps).QueryRowContext(ctx, args...)
	case tx != nil:
		row = tx.QueryRowContext(ctx, stmt, args...)
	case ps != nil:
		row = ps.QueryRowContext(ctx, args...)
	default:
		row = b.Conn.QueryRowContext(ctx, stmt, args...)
	}
	var v int64
	if err := row.Scan(&v); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return 0, ErrNoRows
		}
		return 0, b.fail(err)
	}
	return v, nil
}

// fail classifies err and, inside a transaction, remembers the first one.
func (b *SQLBase) fail(err error) error {
	err = b.wrap(err)
	if b.session.open && b.session.failed == nil {
		b.session.failed = err
	}
	return err
}

var errSessionEnding = errors.New("session ending")

// endSession rolls back an open transaction and closes the prepared
// statements before the pinned connection goes away. Both matter: Conn.Close
// waits for an open *sql.Tx forever, and it returns the driver connection
// to the pool, where a transaction left open would meet the next Conn.
func (b *SQLBase) endSession() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b.session.failed = errSessionEnding // whatever ROLLBACK says
	b.Rollback(ctx)
	for _, ps := range b.session.stmts {
		ps.Close()
	}
	b.session = txSession{}
}
