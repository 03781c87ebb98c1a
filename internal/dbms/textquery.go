package dbms

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"io"
	"sort"
)

// TextQuerier is an engine that runs any statement a user wrote, as written,
// with or without arguments, in its session, and hands the result back as
// text with its column names: what a pgbench-style script needs (package
// internal/workload/script), whose SQL the workload cannot know.
//
// Statements run in the session's open transaction when Transactor.Begin
// opened one, else on their own (autocommit). A failure inside a transaction
// is remembered as Transactor's statements are (Commit then refuses), and
// errors carry their Class.
//
// Every adapter has it: SQLBase implements it for the database/sql engines,
// the PostgreSQL adapter on pgx's own protocol.
type TextQuerier interface {
	// Placeholder is the engine's marker for the i-th argument (from 1) of
	// a statement given to QueryText: "$1", "$2", ... on PostgreSQL, "?"
	// on the others. QueryText sends the text unchanged, so a "?" inside a
	// string literal or an operator stays what it is.
	Placeholder(i int) string
	// QueryText runs stmt with args (each nil, an int64 or a string; nil
	// binds NULL, a string is text the engine converts to the parameter's
	// type as it converts a literal). With prepared the statement is
	// prepared on the session the first time this text comes and reused
	// from then on; without, it is sent as text each time (with args,
	// through the engine's parameter binding, parsed again each time).
	// Every row of the result is fetched; when res is not nil it receives
	// the column names and the rows as text (NULL as "", as libpq gives
	// it), reusing its slices.
	QueryText(ctx context.Context, stmt string, args []any, prepared bool, res *TextResult) error
	// PrepareText prepares stmt for QueryText's prepared runs now rather
	// than on its first run (a session's setup, before it is timed).
	PrepareText(ctx context.Context, stmt string) error
	// InTransaction reports whether a transaction the session knows of
	// is open: one Begin opened, or, on an engine whose session follows
	// its server's status (PostgreSQL), one a statement's SQL opened.
	InTransaction() bool
}

// TextResult is a statement's result as text: the column names as the
// engine names them, and the rows.
type TextResult struct {
	Columns []string
	Rows    [][]string
}

// Reset empties r for the next result, keeping its storage.
func (r *TextResult) Reset() {
	r.Columns = r.Columns[:0]
	r.Rows = r.Rows[:0]
}

// PipelineStatement is one statement of a pipeline: its text with the
// engine's placeholders, its arguments (as TextQuerier takes them), whether
// it runs as a statement prepared once per session, and whether a
// synchronisation point (pgbench's \syncpipeline) follows it.
type PipelineStatement struct {
	SQL      string
	Args     []any
	Prepared bool
	Sync     bool
}

// Pipeliner is an engine whose protocol sends several statements without
// waiting for each answer (PostgreSQL's pipeline mode, pgbench's
// \startpipeline ... \endpipeline): Pipeline sends stmts, a sync point after
// each one marked Sync and one at the end, and reads every result. An error
// makes the server skip the statements up to the next sync point; the first
// error is returned, with its Class. Transaction statements may stand in the
// pipeline as SQL (BEGIN, COMMIT): the session then follows what they did,
// so InTransaction, Commit and Rollback see a transaction left open.
type Pipeliner interface {
	Pipeline(ctx context.Context, stmts []PipelineStatement) error
}

// CompoundQuerier is an engine that takes several statements in one call,
// as pgbench sends a `\;` compound under the simple protocol: PostgreSQL
// runs the statements of one Query message as one implicit transaction.
// QueryCompound runs sql (statements separated by ";", no arguments) and
// calls each with every statement's result in order (Columns empty for a
// statement that returns no rows); the first error ends it.
type CompoundQuerier interface {
	QueryCompound(ctx context.Context, sql string, each func(res *TextResult) error) error
}

var _ TextQuerier = (*SQLBase)(nil)

// Placeholder is "?", the marker of every database/sql engine here.
func (b *SQLBase) Placeholder(int) string { return "?" }

// PrepareText prepares stmt on the pinned connection (see Prepare).
func (b *SQLBase) PrepareText(ctx context.Context, stmt string) error { return b.Prepare(ctx, stmt) }

// QueryText runs stmt through database/sql on the pinned connection (on the
// open database/sql transaction, Firebird's, when there is one).
func (b *SQLBase) QueryText(ctx context.Context, stmt string, args []any, prepared bool, res *TextResult) error {
	if b.session.reset {
		if err := b.Autocommit(ctx); err != nil {
			return err
		}
	}
	var ps *sql.Stmt
	if prepared {
		p := b.session.find(stmt)
		if p == nil {
			if err := b.Prepare(ctx, stmt); err != nil {
				return b.fail(err)
			}
			p = b.session.stmts[stmt]
		}
		if ran, err := b.runNative(ctx, p, args, res); ran {
			if err != nil {
				return b.fail(err)
			}
			return nil
		}
		if b.session.bindDirect(p, args) {
			if err := b.queryTextDirect(ctx, p, res); err != nil {
				return b.fail(err)
			}
			return nil
		}
		ps = p.stmt()
	}
	var rows *sql.Rows
	var err error
	switch tx := b.session.tx; {
	case tx != nil && ps != nil: // see ExecArgs
		rows, err = tx.StmtContext(ctx, ps).QueryContext(ctx, args...)
	case tx != nil:
		rows, err = tx.QueryContext(ctx, stmt, args...)
	case ps != nil:
		rows, err = ps.QueryContext(ctx, args...)
	default:
		rows, err = b.Conn.QueryContext(ctx, stmt, args...)
	}
	if err != nil {
		return b.fail(err)
	}
	if err := b.readText(rows, res); err != nil {
		return b.fail(err)
	}
	return nil
}

// find is the statement prepared for text stmt, nil if none is. A caller
// that runs a few statements over and over (a script) gives the same
// strings each time, which compare equal at once (same bytes, same
// address): a scan of the last few is cheaper than hashing the text for
// the map, which on an embedded engine was a visible part of the script
// runtime's CPU (docs/client-cost.md).
func (s *txSession) find(stmt string) *prepared {
	for i := range s.recent {
		if r := &s.recent[i]; r.p != nil && r.text == stmt {
			return r.p
		}
	}
	p := s.stmts[stmt]
	if p != nil {
		s.recent[s.next] = recentStmt{stmt, p}
		s.next = (s.next + 1) % len(s.recent)
	}
	return p
}

// readText reads every row of rows into res (or discards them) and closes
// rows.
func (b *SQLBase) readText(rows *sql.Rows, res *TextResult) error {
	defer rows.Close()
	if res == nil {
		for rows.Next() {
		}
		return rows.Err()
	}
	res.Reset()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	res.Columns = append(res.Columns, cols...)
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = Text(v)
		}
		res.Rows = append(res.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return rows.Close()
}

// queryTextDirect runs p's driver statement with the bound arguments (the
// fast path of tx.go) and reads every row, into res when it is not nil.
func (b *SQLBase) queryTextDirect(ctx context.Context, p *prepared, res *TextResult) error {
	return b.queryDirect(ctx, p, func(rows driver.Rows, cols []string, dest []driver.Value) error {
		if res != nil {
			res.Reset()
			res.Columns = append(res.Columns, cols...)
		}
		for {
			if err := rows.Next(dest); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
			if res != nil {
				row := make([]string, len(dest))
				for i, v := range dest {
					row[i] = Text(v)
				}
				res.Rows = append(res.Rows, row)
			}
		}
	})
}

// EngineNames lists the registered adapters' names (Engine.Name), sorted:
// what a file or option naming an engine may say.
func EngineNames() []string {
	mu.Lock()
	defer mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for _, a := range adapters {
		if !seen[a.Name] {
			seen[a.Name] = true
			out = append(out, a.Name)
		}
	}
	sort.Strings(out)
	return out
}
