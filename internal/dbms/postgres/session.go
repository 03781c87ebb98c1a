package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var (
	_ dbms.Transactor   = (*Engine)(nil)
	_ dbms.Keys         = (*Engine)(nil)
	_ dbms.SizeReporter = (*Engine)(nil)
)

// isoLevels maps dbms.Isolation to PostgreSQL's levels. REPEATABLE READ is
// snapshot isolation: a row updated by a transaction that committed after
// this one's snapshot fails with 40001, which classifies as dbms.Serialization.
var isoLevels = [...]pgx.TxIsoLevel{
	dbms.RepeatableRead: pgx.RepeatableRead,
	dbms.ReadCommitted:  pgx.ReadCommitted,
	dbms.Serializable:   pgx.Serializable,
}

// Begin starts a transaction at iso (BEGIN ISOLATION LEVEL ..., one round
// trip). Statements of the transaction run on the session's connection,
// which is where pgx's Tx would send them too.
func (e *Engine) Begin(ctx context.Context, iso dbms.Isolation) error {
	if e.tx != nil {
		return errors.New("begin: a transaction is already open on this session")
	}
	tx, err := e.conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: isoLevels[iso]})
	if err != nil {
		return e.classify(err)
	}
	e.tx = tx
	return nil
}

// Commit commits the open transaction. When a statement of it failed,
// PostgreSQL rolls back instead and pgx reports pgx.ErrTxCommitRollback. The
// transaction is over either way.
func (e *Engine) Commit(ctx context.Context) error {
	if e.tx == nil {
		return errors.New("commit: no transaction is open on this session")
	}
	tx := e.tx
	e.tx = nil
	return e.classify(tx.Commit(ctx))
}

// Rollback ends the open transaction, if any, without effect.
func (e *Engine) Rollback(ctx context.Context) error {
	if e.tx == nil {
		return nil
	}
	tx := e.tx
	e.tx = nil
	if err := tx.Rollback(ctx); err != nil && !errors.Is(err, pgx.ErrTxClosed) {
		return e.classify(err)
	}
	return nil
}

// dollarSQL returns stmt with $n placeholders, rewriting each distinct text
// once.
func (e *Engine) dollarSQL(stmt string) string {
	if s, ok := e.dollar[stmt]; ok {
		return s
	}
	if e.dollar == nil {
		e.dollar = map[string]string{}
	}
	s := dollarPlaceholders(stmt)
	e.dollar[stmt] = s
	return s
}

// Prepare prepares stmt as a named statement whose name is its rewritten
// text: pgx then uses it (extended protocol, no parsing or planning by the
// server after the first executions) whenever Exec or QueryRow get that
// text. Unprepared statements go by the simple protocol with the arguments
// quoted into the text, as pgbench -M simple does (see Open).
func (e *Engine) Prepare(ctx context.Context, stmt string) error {
	s := e.dollarSQL(stmt)
	sd, err := e.conn.Prepare(ctx, s, s)
	if err != nil {
		return e.classify(fmt.Errorf("prepare %s: %w", stmt, err))
	}
	if e.prepared == nil {
		e.prepared = map[string]*pgconn.StatementDescription{}
	}
	e.prepared[stmt] = sd // pgx may name it otherwise than asked
	return nil
}

// ExecArgs runs stmt with args and returns the rows it affected.
func (e *Engine) ExecArgs(ctx context.Context, stmt string, args ...any) (int64, error) {
	if sd, ok := e.prepared[stmt]; ok && e.encode(args) {
		return e.execPrepared(ctx, sd)
	}
	tag, err := e.conn.Exec(ctx, e.dollarSQL(stmt), args...)
	if err != nil {
		return 0, e.classify(err)
	}
	return tag.RowsAffected(), nil
}

// QueryInt returns the first column of the first row of stmt as an integer.
func (e *Engine) QueryInt(ctx context.Context, stmt string, args ...any) (int64, error) {
	if sd, ok := e.prepared[stmt]; ok && e.encode(args) {
		return e.queryIntPrepared(ctx, sd)
	}
	var v int64
	if err := e.conn.QueryRow(ctx, e.dollarSQL(stmt), args...).Scan(&v); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return 0, dbms.ErrNoRows
		}
		return 0, e.classify(err)
	}
	return v, nil
}
