package dbms

import "context"

// NativeStmts is an adapter's own way of running the statements QueryText
// prepares, and the transaction statements, below its driver: one call into
// the engine's library per execution that binds every argument, runs the
// statement to its end, hands the rows back as text and resets it (the
// SQLite adapter's C path). For an embedded engine whose statements take
// microseconds the driver's Go side (database/sql, a Rows object per query,
// locks, one crossing into C per argument and per row) was as large a
// share of the client's CPU as all the rest of the client
// (docs/client-cost.md). Set as SQLBase.Native, with DirectStmts.
//
// Such a path checks the context before each statement and does not watch
// it while the statement runs, as Unwatched says.
type NativeStmts interface {
	// PrepareNative prepares stmt on dc, the pinned connection's driver
	// connection (SQLBase calls it inside sql.Conn.Raw, so the connection
	// is open and held). It returns nil and no error for a statement it
	// leaves to the driver.
	PrepareNative(dc any, stmt string) (NativeStmt, error)
}

// NativeStmt is one statement NativeStmts prepared. It is used by the
// session's goroutine only, and closed by SQLBase before the connection
// goes.
type NativeStmt interface {
	// Run binds args (QueryText's: nil, int64 or string), runs the
	// statement to its end and resets it. With res not nil, res receives
	// the column names and every row as text, as Text renders the values
	// the driver would have given. ok false says Run cannot take these
	// arguments (their number or a type) and ran nothing: the driver's
	// path runs the call. Errors are the engine's, for ClassifyErr.
	Run(args []any, res *TextResult) (ok bool, err error)
	Close() error
}

// prepareNative prepares stmt for p with the adapter's NativeStmts.
func (b *SQLBase) prepareNative(stmt string, p *prepared) error {
	return b.Conn.Raw(func(dc any) error {
		ns, err := b.Native.PrepareNative(dc, stmt)
		if err != nil {
			return err
		}
		p.ns = ns
		return nil
	})
}

// runNative runs p's native statement, when it has one, for a call that
// could take the driver's fast path (no database/sql transaction is open);
// ran false leaves the call to the driver.
func (b *SQLBase) runNative(ctx context.Context, p *prepared, args []any, res *TextResult) (ran bool, err error) {
	if p.ns == nil || b.session.tx != nil {
		return false, nil
	}
	if err := ctx.Err(); err != nil {
		return true, err
	}
	return p.ns.Run(args, res)
}
