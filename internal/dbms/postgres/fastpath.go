package postgres

import (
	"context"
	"strconv"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// The fast path of prepared statements: load drivers call ExecArgs and
// QueryInt with integer arguments hundreds of thousands of times, and pgx's
// general path (argument boxing, type mapping, row scanning) costs more
// client CPU than the server spends on a point select. Here the arguments
// are written as text into one reused buffer and the statement runs through
// pgconn's ExecStatement with the description Prepare got: one round trip
// of Bind, Execute and Sync, as pgbench -M prepared sends (ExecPrepared
// would add a Describe, and the server a RowDescription, to every call), no
// per-call allocation in this code.

// encode writes args as text parameters; false when an argument is of a
// type the fast path does not handle (the general path takes it).
func (e *Engine) encode(args []any) bool {
	e.buf = e.buf[:0]
	ends := [8]int{}
	if len(args) > len(ends) {
		return false
	}
	for i, a := range args {
		switch v := a.(type) {
		case int64:
			e.buf = strconv.AppendInt(e.buf, v, 10)
		case int:
			e.buf = strconv.AppendInt(e.buf, int64(v), 10)
		case int32:
			e.buf = strconv.AppendInt(e.buf, int64(v), 10)
		case string:
			e.buf = append(e.buf, v...)
		default:
			return false
		}
		ends[i] = len(e.buf)
	}
	e.params = e.params[:0]
	start := 0
	for i := range args {
		e.params = append(e.params, e.buf[start:ends[i]])
		start = ends[i]
	}
	return true
}

func (e *Engine) execPrepared(ctx context.Context, sd *pgconn.StatementDescription) (int64, error) {
	rr := e.conn.PgConn().ExecStatement(ctx, sd, e.params, nil, nil)
	tag, err := rr.Close()
	if err != nil {
		return 0, e.classify(err)
	}
	return tag.RowsAffected(), nil
}

func (e *Engine) queryIntPrepared(ctx context.Context, sd *pgconn.StatementDescription) (int64, error) {
	rr := e.conn.PgConn().ExecStatement(ctx, sd, e.params, nil, nil)
	var v int64
	var perr error
	found := false
	for rr.NextRow() {
		if !found {
			vals := rr.Values()
			if len(vals) > 0 && vals[0] != nil {
				v, perr = strconv.ParseInt(string(vals[0]), 10, 64)
			}
			found = true
		}
	}
	if _, err := rr.Close(); err != nil {
		return 0, e.classify(err)
	}
	if !found {
		return 0, dbms.ErrNoRows
	}
	return v, perr
}
