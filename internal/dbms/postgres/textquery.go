package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var (
	_ dbms.TextQuerier     = (*Engine)(nil)
	_ dbms.Pipeliner       = (*Engine)(nil)
	_ dbms.CompoundQuerier = (*Engine)(nil)
)

// The user's statements go to pgconn as pgbench sends them through libpq:
// without arguments by the simple protocol (Query), with arguments by the
// extended one (Parse, Bind, Execute of the unnamed statement, as
// PQsendQueryParams), prepared as a named statement once per session (as
// PQsendQueryPrepared). Arguments travel as text with no type given, so the
// server infers each parameter's type from the statement, as it does for
// pgbench, and results come back as text.

// Placeholder is PostgreSQL's $1, $2, ...
func (e *Engine) Placeholder(i int) string { return "$" + strconv.Itoa(i) }

// InTransaction reports whether a transaction is open on the session.
func (e *Engine) InTransaction() bool { return e.tx != nil }

// QueryText runs stmt (see dbms.TextQuerier). The session follows the
// server's transaction status after it, so a transaction begun or ended by
// the statement's own SQL (BEGIN READ ONLY) is the session's to end.
func (e *Engine) QueryText(ctx context.Context, stmt string, args []any, prepared bool, res *dbms.TextResult) error {
	defer e.followTxStatus()
	pc := e.conn.PgConn()
	params, err := e.textParams(args)
	if err != nil {
		return err
	}
	if !prepared && len(args) == 0 {
		mrr := pc.Exec(ctx, stmt)
		if res != nil {
			res.Reset()
		}
		for mrr.NextResult() {
			readResult(mrr.ResultReader(), res)
		}
		return e.classify(mrr.Close())
	}
	var rr *pgconn.ResultReader
	if prepared {
		sd, err := e.scriptStatement(ctx, stmt)
		if err != nil {
			return err
		}
		rr = pc.ExecStatement(ctx, sd, params, nil, nil)
	} else {
		rr = pc.ExecParams(ctx, stmt, params, nil, nil, nil)
	}
	if res != nil {
		res.Reset()
	}
	return e.classify(readResult(rr, res))
}

// QueryCompound sends sql in one Query message (dbms.CompoundQuerier).
func (e *Engine) QueryCompound(ctx context.Context, sql string, each func(res *dbms.TextResult) error) error {
	defer e.followTxStatus()
	mrr := e.conn.PgConn().Exec(ctx, sql)
	var cbErr error
	for mrr.NextResult() {
		var res dbms.TextResult
		err := readResult(mrr.ResultReader(), &res)
		if err == nil && cbErr == nil {
			cbErr = each(&res)
		}
	}
	if err := mrr.Close(); err != nil {
		return e.classify(err)
	}
	return cbErr
}

// PrepareText prepares stmt for QueryText (see dbms.TextQuerier).
func (e *Engine) PrepareText(ctx context.Context, stmt string) error {
	_, err := e.scriptStatement(ctx, stmt)
	return err
}

// scriptStatement prepares stmt once per session under a name of its own.
func (e *Engine) scriptStatement(ctx context.Context, stmt string) (*pgconn.StatementDescription, error) {
	if sd, ok := e.scriptStmts[stmt]; ok {
		return sd, nil
	}
	name := "dbgauge_script_" + strconv.Itoa(len(e.scriptStmts)+1)
	sd, err := e.conn.PgConn().Prepare(ctx, name, stmt, nil)
	if err != nil {
		return nil, e.classify(fmt.Errorf("prepare %s: %w", stmt, err))
	}
	if e.scriptStmts == nil {
		e.scriptStmts = map[string]*pgconn.StatementDescription{}
	}
	e.scriptStmts[stmt] = sd
	return sd, nil
}

// textParams renders args as text parameters in the session's reused
// buffers (nil for NULL).
func (e *Engine) textParams(args []any) ([][]byte, error) {
	e.buf = e.buf[:0]
	e.ends = e.ends[:0]
	for _, a := range args {
		switch v := a.(type) {
		case nil:
			e.ends = append(e.ends, -1)
			continue
		case int64:
			e.buf = strconv.AppendInt(e.buf, v, 10)
		case string:
			e.buf = append(e.buf, v...)
		default:
			return nil, fmt.Errorf("argument %d: %T is not an int64 or a string", len(e.ends)+1, a)
		}
		e.ends = append(e.ends, len(e.buf))
	}
	// Sliced once buf has stopped growing (and moving).
	e.params = e.params[:0]
	start := 0
	for _, end := range e.ends {
		if end < 0 {
			e.params = append(e.params, nil)
			continue
		}
		p := e.buf[start:end:end]
		if p == nil {
			p = []byte{} // the empty string, not NULL
		}
		e.params = append(e.params, p)
		start = end
	}
	return e.params, nil
}

// readResult reads rr to its end into res (when not nil): the last result
// of a command is the one a caller gets.
func readResult(rr *pgconn.ResultReader, res *dbms.TextResult) error {
	if res == nil {
		for rr.NextRow() {
		}
		_, err := rr.Close()
		return err
	}
	fields := rr.FieldDescriptions()
	if len(fields) > 0 {
		res.Columns = res.Columns[:0]
		res.Rows = res.Rows[:0]
		for _, f := range fields {
			res.Columns = append(res.Columns, f.Name)
		}
	}
	for rr.NextRow() {
		vals := rr.Values()
		row := make([]string, len(vals))
		for i, v := range vals {
			row[i] = string(v) // NULL (nil) reads as "", as libpq's PQgetvalue
		}
		res.Rows = append(res.Rows, row)
	}
	_, err := rr.Close()
	return err
}

// Pipeline runs stmts in one pipeline (dbms.Pipeliner). Prepared statements
// are prepared before the pipeline starts, as pgbench does.
func (e *Engine) Pipeline(ctx context.Context, stmts []dbms.PipelineStatement) error {
	sds := make([]*pgconn.StatementDescription, len(stmts))
	for i, s := range stmts {
		if s.Prepared {
			sd, err := e.scriptStatement(ctx, s.SQL)
			if err != nil {
				return err
			}
			sds[i] = sd
		}
	}
	pc := e.conn.PgConn()
	p := pc.StartPipeline(ctx)
	for i, s := range stmts {
		params, err := e.textParams(s.Args)
		if err != nil {
			p.Close()
			return err
		}
		// The pipeline copies the parameters into its buffer as it queues.
		if sds[i] != nil {
			p.SendQueryStatement(sds[i], params, nil, nil)
		} else {
			p.SendQueryParams(s.SQL, params, nil, nil, nil)
		}
		if s.Sync {
			p.SendPipelineSync()
		}
	}
	var first error
	if err := p.Sync(); err != nil {
		first = err
	}
	for first == nil || isPgError(first) {
		r, err := p.GetResults()
		if err != nil {
			if first == nil {
				first = err
			}
			if !isPgError(err) {
				break
			}
			continue
		}
		if r == nil {
			break
		}
		if rr, ok := r.(*pgconn.ResultReader); ok {
			if _, err := rr.Close(); err != nil && first == nil {
				first = err
			}
		}
	}
	if err := p.Close(); err != nil && first == nil {
		first = err
	}
	e.followTxStatus()
	return e.classify(first)
}

func isPgError(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe)
}

// followTxStatus brings the session's idea of its transaction in line with
// the server's after SQL that may have begun or ended one (a pipeline's
// BEGIN or COMMIT): a transaction the server has open becomes the session's,
// to commit or roll back through the Transactor.
func (e *Engine) followTxStatus() {
	switch open := e.conn.PgConn().TxStatus() != 'I'; {
	case open && e.tx == nil:
		e.tx = &serverTx{conn: e.conn}
	case !open && e.tx != nil:
		e.tx = nil
	}
}

// serverTx is a transaction begun by SQL text rather than by Begin: Commit
// and Rollback end it by SQL too. Only they are used.
type serverTx struct {
	pgx.Tx
	conn *pgx.Conn
}

func (t *serverTx) Commit(ctx context.Context) error {
	tag, err := t.conn.Exec(ctx, "COMMIT")
	if err == nil && tag.String() == "ROLLBACK" {
		return pgx.ErrTxCommitRollback
	}
	return err
}

func (t *serverTx) Rollback(ctx context.Context) error {
	_, err := t.conn.Exec(ctx, "ROLLBACK")
	return err
}
