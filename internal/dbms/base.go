package dbms

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"
	"time"
)

// SQLBase implements the parts of Engine that are the same for every
// database/sql driver, on one pinned connection. Adapters embed it, set
// TypeName and Classify, and override what their dialect does differently.
type SQLBase struct {
	DB   *sql.DB
	Conn *sql.Conn
	// TypeName renders a column type in the engine's dialect.
	TypeName func(Column) string
	// ClassifyErr attaches a Class to a driver error (nil: Classify's default).
	ClassifyErr func(error) error
	// Interrupt, when set, is called if a call's context ends while the
	// statement runs, to stop it on the server (drivers that merely drop the
	// connection leave the server working).
	Interrupt func()
	// OnConnect, when set, runs on every new pinned connection made by
	// Reconnect (to refresh a session id the Interrupt uses, say).
	OnConnect func(ctx context.Context) error
	// ResetAutocommit, when set, runs before the first statement outside a
	// transaction after a transaction begun by Begin ended (tx.go): for
	// drivers whose autocommit would go on with that transaction's
	// parameters (Firebird's).
	ResetAutocommit func(ctx context.Context) error
	// DirectStmts, when set, makes Prepare also prepare each statement on
	// the driver's own connection, and ExecArgs and QueryInt run it there,
	// as BEGIN, COMMIT and ROLLBACK (the fast path in tx.go): for the
	// embedded engines, whose statements take microseconds, database/sql's
	// per-call machinery cost nearly as much CPU as the engine
	// (docs/client-cost.md); on MariaDB about a fifth of the client's.
	// Only for drivers whose statements implement driver.StmtExecContext
	// and StmtQueryContext and whose transactions live in the connection
	// (go-sqlite3, duckdb-go, go-sql-driver/mysql).
	DirectStmts bool
	// Unwatched, with DirectStmts, has the fast path check the context
	// before each statement instead of handing the driver one it would
	// watch while the statement runs. For go-sqlite3: its watch of an Exec
	// is a goroutine of its own per statement, on the load driver's locked
	// worker threads a hand-off between threads that cost five times the
	// CPU of the rest of a TPC-B transaction, and its interrupt can stop a
	// running statement but not a wait for a lock (SQLite's busy handler
	// does not look at it). Transaction statements are short (ExecArgs
	// never arms Interrupt either); the other calls (Exec, QueryRows,
	// statements not prepared) still hand the context on.
	Unwatched bool
	// Native, when set with DirectStmts, runs QueryText's prepared
	// statements and the transaction statements on the adapter's own path
	// below the driver, one call each (native.go); the driver's statements
	// stay prepared for every other call.
	Native NativeStmts

	// session is the Transactor state of this connection (tx.go).
	session txSession
}

// Base is the SQLBase itself, promoted to every adapter that embeds it:
// shared checks (package dbmstest) reach its switches through it.
func (b *SQLBase) Base() *SQLBase { return b }

// Reconnect replaces the pinned connection with a new session:
// after a cancelled statement some drivers leave the old one closed. Session
// state (SET, temporary tables) does not survive it.
func (b *SQLBase) Reconnect(ctx context.Context) error {
	b.endSession()
	DiscardConn(b.Conn)
	c, err := b.DB.Conn(ctx)
	if err != nil {
		return b.wrap(err)
	}
	if err := c.PingContext(ctx); err != nil {
		c.Close()
		return b.wrap(err)
	}
	b.Conn = c
	if b.OnConnect != nil {
		return b.OnConnect(ctx)
	}
	return nil
}

// watch arranges for Interrupt to run if ctx ends during a call; the
// returned function ends the watch.
func (b *SQLBase) watch(ctx context.Context) func() bool {
	if b.Interrupt == nil {
		return func() bool { return false }
	}
	return context.AfterFunc(ctx, b.Interrupt)
}

// DiscardConn closes c and its session. Closing a healthy sql.Conn hands
// its session back to database/sql's pool, and the next Conn would be
// that same session again; a driver connection answered with ErrBadConn
// is closed instead.
func DiscardConn(c *sql.Conn) {
	c.Raw(func(any) error { return driver.ErrBadConn })
	c.Close()
}

// OpenSQL opens db with one pinned connection and checks it answers.
func OpenSQL(ctx context.Context, driver, dsn string) (*sql.DB, *sql.Conn, error) {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, nil, err
	}
	return PinSQL(ctx, db)
}

// PinSQL takes db's one pinned connection and checks it answers; on an
// error db is closed.
func PinSQL(ctx context.Context, db *sql.DB) (*sql.DB, *sql.Conn, error) {
	conn, err := db.Conn(ctx)
	if err == nil {
		err = conn.PingContext(ctx)
	}
	if err != nil {
		if conn != nil {
			conn.Close()
		}
		db.Close()
		return nil, nil, err
	}
	return db, conn, nil
}

func (b *SQLBase) wrap(err error) error {
	if err == nil || b.ClassifyErr == nil {
		return err
	}
	return b.ClassifyErr(err)
}

// Exec runs one statement on the pinned connection.
func (b *SQLBase) Exec(ctx context.Context, q string) (int64, error) {
	if err := b.Autocommit(ctx); err != nil {
		return 0, err
	}
	defer b.watch(ctx)()
	res, err := b.Conn.ExecContext(ctx, q)
	if err != nil {
		return 0, b.wrap(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return -1, nil
	}
	return n, nil
}

// QueryCount fetches every row of q and returns how many there were. Each
// row crosses to the client and is scanned (the driver decodes it, which
// database/sql does not let a caller skip).
func (b *SQLBase) QueryCount(ctx context.Context, q string) (int64, error) {
	if err := b.Autocommit(ctx); err != nil {
		return 0, err
	}
	defer b.watch(ctx)()
	rows, err := b.Conn.QueryContext(ctx, q)
	if err != nil {
		return 0, b.wrap(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, b.wrap(err)
	}
	vals := make([]any, len(cols))
	for i := range vals {
		vals[i] = new(any)
	}
	var n int64
	for rows.Next() {
		if err := rows.Scan(vals...); err != nil {
			return n, b.wrap(err)
		}
		n++
	}
	return n, b.wrap(rows.Err())
}

// QueryRows returns all rows of q as strings. Values are scanned into any,
// so engine-specific types (DuckDB's HUGEINT as *big.Int, lists) render too.
func (b *SQLBase) QueryRows(ctx context.Context, q string) ([][]string, error) {
	if err := b.Autocommit(ctx); err != nil {
		return nil, err
	}
	defer b.watch(ctx)()
	rows, err := b.Conn.QueryContext(ctx, q)
	if err != nil {
		return nil, b.wrap(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, b.wrap(err)
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var out [][]string
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return out, b.wrap(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = Text(v)
		}
		out = append(out, row)
	}
	return out, b.wrap(rows.Err())
}

// Text renders a scanned value: NULL as "", trailing blanks of padded
// (char) text removed, times in RFC 3339.
func Text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimRight(x, " ")
	case []byte:
		return strings.TrimRight(string(x), " ")
	case time.Time:
		return x.Format(time.RFC3339Nano)
	default:
		return fmt.Sprint(x)
	}
}

// QueryValue returns the first column of the first row of q.
func (b *SQLBase) QueryValue(ctx context.Context, q string) (string, error) {
	return FirstValue(ctx, b, q)
}

// FirstValue returns the first column of the first row of q on any engine.
func FirstValue(ctx context.Context, e interface {
	QueryRows(context.Context, string) ([][]string, error)
}, q string) (string, error) {
	rows, err := e.QueryRows(ctx, q)
	if err != nil {
		return "", err
	}
	if len(rows) == 0 || len(rows[0]) == 0 {
		return "", fmt.Errorf("%s: no rows", q)
	}
	return rows[0][0], nil
}

// Close closes the pinned connection and the pool.
func (b *SQLBase) Close() error {
	b.endSession()
	err := b.Conn.Close()
	if e := b.DB.Close(); err == nil {
		err = e
	}
	return err
}

// StandardType renders a column in SQL's standard types (INTEGER, BIGINT,
// CHAR(n), VARCHAR(n), DECIMAL(p,s)), which SQLite, MariaDB and Firebird
// take as they are.
func StandardType(c Column) string {
	switch c.Type {
	case Char:
		return fmt.Sprintf("CHAR(%d)", c.Len)
	case Varchar:
		return fmt.Sprintf("VARCHAR(%d)", c.Len)
	case Decimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", c.Len, c.Scale)
	case BigInt:
		return "BIGINT"
	case Timestamp:
		return "TIMESTAMP"
	default:
		return "INTEGER"
	}
}

// ColumnList renders "name type, ..." for CREATE TABLE.
func (b *SQLBase) ColumnList(cols []Column) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = c.Name + " " + b.TypeName(c)
	}
	return strings.Join(parts, ", ")
}

// CreateTable creates t with the adapter's type names.
func (b *SQLBase) CreateTable(ctx context.Context, t Table) error {
	_, err := b.Exec(ctx, fmt.Sprintf("CREATE TABLE %s (%s)", t.Name, b.ColumnList(t.Columns)))
	return err
}

// DropTable drops a table if it exists.
func (b *SQLBase) DropTable(ctx context.Context, name string) error {
	_, err := b.Exec(ctx, "DROP TABLE IF EXISTS "+name)
	return err
}

// CreateIndex builds a B-tree index; Hash is not supported by default.
func (b *SQLBase) CreateIndex(ctx context.Context, table, name, column string, kind IndexKind, unique bool) error {
	if kind == Hash {
		return fmt.Errorf("hash index: %w", ErrNotSupported)
	}
	u := ""
	if unique {
		u = "UNIQUE "
	}
	_, err := b.Exec(ctx, fmt.Sprintf("CREATE %sINDEX %s ON %s (%s)", u, name, table, column))
	return err
}

// DropIndex drops an index by name (dialects that need the table override).
func (b *SQLBase) DropIndex(ctx context.Context, table, name string) error {
	_, err := b.Exec(ctx, "DROP INDEX IF EXISTS "+name)
	return err
}

// CreateTableAs uses CREATE TABLE ... AS.
func (b *SQLBase) CreateTableAs(ctx context.Context, name, query string, cols []Column) error {
	_, err := b.Exec(ctx, fmt.Sprintf("CREATE TABLE %s AS %s", name, query))
	return err
}

// Quote renders a value as an SQL literal: int64 as digits, strings quoted.
func Quote(v any) string {
	switch x := v.(type) {
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case int64:
		return fmt.Sprint(x)
	case int:
		return fmt.Sprint(x)
	default:
		return fmt.Sprint(x)
	}
}
