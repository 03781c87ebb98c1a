package dbms

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
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
	stmts map[string]*prepared
	// reset: a transaction ended since ResetAutocommit last ran.
	reset bool
	// control are the transaction statements (BEGIN, COMMIT, ROLLBACK)
	// prepared on the driver connection for execControl, by their text; nil
	// when the driver cannot prepare one (it then goes as text).
	control map[string]*prepared
	// nv and dest are the direct path's argument and row buffers, reused
	// from call to call.
	nv   []driver.NamedValue
	dest []driver.Value
	// recent are the statements QueryText ran last (textquery.go's find).
	recent [8]recentStmt
	next   int
}

// recentStmt is one of txSession.recent.
type recentStmt struct {
	text string
	p    *prepared
}

// prepared is one statement prepared on the pinned connection: through
// database/sql, and with SQLBase.DirectStmts on the driver connection too.
type prepared struct {
	ps *sql.Stmt
	// ds is the driver's own statement, nil without DirectStmts or when
	// the driver's statements lack the context methods.
	ds directStmt
	// inputs is ds's number of placeholders, -1 when the driver does not
	// know it.
	inputs int
	// ns is the adapter's native statement (SQLBase.Native), nil without.
	ns NativeStmt
}

// stmt is p's database/sql statement; nil when p is (not prepared).
func (p *prepared) stmt() *sql.Stmt {
	if p == nil {
		return nil
	}
	return p.ps
}

// directStmt is a driver statement the fast path can run.
type directStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
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
	if err := b.execControl(ctx, begin); err != nil {
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
	if err := b.execControl(ctx, "COMMIT"); err != nil {
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
		err = b.execControl(ctx, "ROLLBACK")
	}
	err = b.wrap(err)
	if err != nil && failed && Classify(err) != ConnectionLost {
		return nil
	}
	return err
}

// Prepare prepares stmt on the pinned connection once; ExecArgs and
// QueryInt use it whenever they are given the same text. With DirectStmts
// it is prepared a second time on the driver connection, for the fast path
// (the database/sql statement serves the calls the fast path leaves to the
// general one).
func (b *SQLBase) Prepare(ctx context.Context, stmt string) error {
	if _, ok := b.session.stmts[stmt]; ok {
		return nil
	}
	ps, err := b.Conn.PrepareContext(ctx, stmt)
	if err != nil {
		return b.wrap(fmt.Errorf("prepare %s: %w", stmt, err))
	}
	p := &prepared{ps: ps}
	if b.DirectStmts {
		err := b.prepareDirect(ctx, stmt, p)
		if err == nil && b.Native != nil {
			if err = b.prepareNative(stmt, p); err != nil {
				b.closeDirect(p)
			}
		}
		if err != nil {
			ps.Close()
			return b.wrap(fmt.Errorf("prepare %s: %w", stmt, err))
		}
	}
	if b.session.stmts == nil {
		b.session.stmts = map[string]*prepared{}
	}
	b.session.stmts[stmt] = p
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
	p := b.session.stmts[stmt]
	if p != nil && b.session.bindDirect(p, args) {
		n, err := b.execDirect(ctx, p)
		if err != nil {
			return 0, b.fail(err)
		}
		return n, nil
	}
	ps := p.stmt()
	var res sql.Result
	var err error
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
	p := b.session.stmts[stmt]
	if p != nil && b.session.bindDirect(p, args) {
		v, err := b.queryIntDirect(ctx, p)
		if err != nil && err != ErrNoRows {
			return 0, b.fail(err)
		}
		return v, err
	}
	ps := p.stmt()
	var row *sql.Row
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
	for _, p := range b.session.stmts {
		b.closeNative(p)
		b.closeDirect(p)
		p.ps.Close()
	}
	for _, p := range b.session.control {
		b.closeNative(p)
		b.closeDirect(p)
	}
	b.session = txSession{}
}

// closeDirect closes p's driver statement, if any. On a connection
// database/sql has closed already, the driver closed its statements with it.
func (b *SQLBase) closeDirect(p *prepared) {
	if p != nil && p.ds != nil {
		b.Conn.Raw(func(any) error { return p.ds.Close() })
	}
}

// closeNative closes p's native statement, if any.
func (b *SQLBase) closeNative(p *prepared) {
	if p != nil && p.ns != nil {
		p.ns.Close()
		p.ns = nil
	}
}

// execControl runs a transaction statement (BEGIN ..., COMMIT, ROLLBACK):
// with DirectStmts as a driver statement prepared on first use, else as text
// through database/sql, which has the driver parse it every time (and
// go-sqlite3 run it on a goroutine of its own when ctx can be cancelled).
func (b *SQLBase) execControl(ctx context.Context, q string) error {
	if b.DirectStmts {
		p, ok := b.session.control[q]
		if !ok {
			p = &prepared{}
			err := b.prepareDirect(ctx, q, p)
			if err == nil && p.ds != nil && b.Native != nil {
				if err = b.prepareNative(q, p); err != nil {
					b.closeDirect(p)
					p.ds = nil
				}
			}
			if err != nil && !refusedPrepare(b.wrap(err)) {
				// The server answered the prepare with the session's own
				// news: a Galera node that rolled the transaction back
				// (a brute-force abort) tells the next command, whatever
				// it is. Sent as text after that, COMMIT would commit
				// nothing and succeed: the client would be told of a
				// commit that never was.
				return err
			}
			if err != nil || p.ds == nil {
				p = nil // the text route runs it
			}
			// A refusal is remembered too (nil: text from now on), so a
			// transaction does not pay a failing prepare each time.
			if b.session.control == nil {
				b.session.control = map[string]*prepared{}
			}
			b.session.control[q] = p
		}
		if p != nil {
			if ran, err := b.runNative(ctx, p, nil, nil); ran {
				return err
			}
			b.session.nv = b.session.nv[:0]
			_, err := b.execDirect(ctx, p)
			return err
		}
	}
	_, err := b.Conn.ExecContext(ctx, q)
	return err
}

// The fast path of prepared statements (SQLBase.DirectStmts). An embedded
// engine answers a point query in microseconds, and database/sql's route
// to the driver cost nearly as much CPU again: a search of the statement's
// connections, argument conversion into a new slice, a Rows with its own
// context, a goroutine watching that context, a lock and a map entry per
// Rows, Scan's conversion (docs/client-cost.md). Here the
// driver's statement, prepared once on the pinned connection, is called
// directly with the session's reused argument and row buffers, under
// Conn.Raw, which holds the driver connection as database/sql's own calls
// do and closes the connection the same way if the driver reports it bad.
// What database/sql would do to the arguments and the result is done here
// for the types the load sends (see bindDirect and asInt64); any other call
// takes the general path. The context goes to the driver as it is, so its
// cancellation still interrupts the engine, unless the adapter set
// Unwatched (driverContext).

// refusedPrepare says whether a failed prepare of a control statement was
// the engine refusing to prepare that statement (its syntax or an ability
// it lacks), which the text route can still run; anything else is the
// statement's failure.
func refusedPrepare(err error) bool {
	c := Classify(err)
	return c == Syntax || c == Unsupported
}

// prepareDirect prepares stmt on the driver connection for p. A driver
// whose statements lack the context methods leaves p without one.
func (b *SQLBase) prepareDirect(ctx context.Context, stmt string, p *prepared) error {
	return b.Conn.Raw(func(dc any) error {
		var ds driver.Stmt
		var err error
		if pc, ok := dc.(driver.ConnPrepareContext); ok {
			ds, err = pc.PrepareContext(ctx, stmt)
		} else {
			ds, err = dc.(driver.Conn).Prepare(stmt)
		}
		if err != nil {
			return err
		}
		d, ok := ds.(directStmt)
		if !ok {
			return ds.Close()
		}
		p.ds, p.inputs = d, d.NumInput()
		return nil
	})
}

// bindDirect fills the session's argument buffer for p's driver statement
// and reports whether the fast path can run the call: p has a driver
// statement, no database/sql transaction is open (its statements must run
// on the Tx), the number of arguments is the statement's, and each argument
// is a value database/sql would pass to the driver unchanged or an int it
// would widen to int64. Anything else (driver.Valuer, named arguments, a
// wrong count) goes the general way, which converts it or reports the error.
func (s *txSession) bindDirect(p *prepared, args []any) bool {
	if p.ds == nil || s.tx != nil || (p.inputs >= 0 && p.inputs != len(args)) {
		return false
	}
	nv := s.nv[:0]
	for i, a := range args {
		switch v := a.(type) {
		case int64, string, float64, bool, []byte, time.Time, nil:
		case int:
			a = int64(v)
		case int32:
			a = int64(v)
		default:
			return false
		}
		nv = append(nv, driver.NamedValue{Ordinal: i + 1, Value: a})
	}
	s.nv = nv
	return true
}

// driverContext is the context the fast path hands the driver: ctx, or with
// Unwatched none that can end, once ctx is found not to have ended.
func (b *SQLBase) driverContext(ctx context.Context) (context.Context, error) {
	if !b.Unwatched {
		return ctx, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// go-sqlite3, the one Unwatched driver, reads no value of its context.
	return context.Background(), nil
}

// execDirect runs p's driver statement with the bound arguments.
func (b *SQLBase) execDirect(ctx context.Context, p *prepared) (n int64, err error) {
	defer clear(b.session.nv)
	ctx, err = b.driverContext(ctx)
	if err != nil {
		return 0, err
	}
	err = b.Conn.Raw(func(any) error {
		res, err := p.ds.ExecContext(ctx, b.session.nv)
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			n = -1
		}
		return nil
	})
	return n, err
}

// queryIntDirect runs p's driver statement with the bound arguments and
// returns the first row's one column, as database/sql's Row.Scan into an
// int64 would: ErrNoRows without a row, an error unless the row has exactly
// one column, the rows' Close error after a good row, later rows unread.
func (b *SQLBase) queryIntDirect(ctx context.Context, p *prepared) (v int64, err error) {
	err = b.queryDirect(ctx, p, func(rows driver.Rows, cols []string, dest []driver.Value) error {
		err := rows.Next(dest)
		switch {
		case err == io.EOF:
			return ErrNoRows
		case err != nil:
			return err
		case len(cols) != 1:
			return fmt.Errorf("sql: expected %d destination arguments in Scan, not 1", len(cols))
		}
		if v, err = asInt64(dest[0]); err != nil {
			return fmt.Errorf("sql: Scan error on column index 0, name %q: %w", cols[0], err)
		}
		return nil
	})
	return v, err
}

// queryDirect runs p's driver statement with the bound arguments and has
// read take its rows, with the session's reused row buffer; the rows'
// Close error counts when read had none.
func (b *SQLBase) queryDirect(ctx context.Context, p *prepared, read func(rows driver.Rows, cols []string, dest []driver.Value) error) (err error) {
	defer clear(b.session.nv)
	ctx, err = b.driverContext(ctx)
	if err != nil {
		return err
	}
	return b.Conn.Raw(func(any) error {
		rows, err := p.ds.QueryContext(ctx, b.session.nv)
		if err != nil {
			return err
		}
		cols := rows.Columns()
		if cap(b.session.dest) < len(cols) {
			b.session.dest = make([]driver.Value, len(cols))
		}
		dest := b.session.dest[:len(cols)]
		err = read(rows, cols, dest)
		clear(dest)
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

// asInt64 converts a driver value as Row.Scan into an int64 does: int64
// and int32 (SQLite's and DuckDB's INTEGER) directly, NULL as an error,
// other types through database/sql's own conversion (sql.NullInt64.Scan).
func asInt64(src driver.Value) (int64, error) {
	switch x := src.(type) {
	case int64:
		return x, nil
	case int32:
		return int64(x), nil
	case nil:
		return 0, errors.New("converting NULL to int64 is unsupported")
	}
	var n sql.NullInt64
	if err := n.Scan(src); err != nil {
		return 0, err
	}
	return n.Int64, nil
}
