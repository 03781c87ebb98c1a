// Package sqlite is dbgauge's adapter for SQLite through mattn/go-sqlite3.
package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

func init() {
	dbms.Register(&dbms.Adapter{Name: "sqlite", Schemes: []string{"sqlite", "sqlite3"}, Open: open,
		// The sqlite3 command-line shell.
		Processes:    []dbms.ProcessName{{Comm: "sqlite3", Product: "SQLite"}},
		FileSuffixes: []string{".db", ".db-wal", ".db-shm", ".db-journal"},
		Embedded:     embeddedURL, NoProcedures: true, Params: params})
}

// params are the URL parameters go-sqlite3 (v1.14) reads as options of a
// connection (its sqlite3.go, SQLiteDriver.Open) and SQLite's own URI
// filename parameters (https://www.sqlite.org/uri.html): go-sqlite3
// ignores any other, so a misspelt _journal_mode would run in the
// default journal mode.
var params = []string{
	"_auth", "_auth_user", "_auth_pass", "_auth_crypt", "_auth_salt",
	"_auto_vacuum", "_vacuum", "_busy_timeout", "_timeout",
	"_cache_size", "_case_sensitive_like", "_cslike",
	"_defer_foreign_keys", "_defer_fk", "_foreign_keys", "_fk",
	"_ignore_check_constraints", "_journal_mode", "_journal",
	"_loc", "_locking_mode", "_locking", "_mutex", "_query_only",
	"_recursive_triggers", "_rt", "_secure_delete", "_stmt_cache_size",
	"_synchronous", "_sync", "_txlock", "_writable_schema",
	"cache", "immutable", "mode", "nolock", "psow", "vfs",
}

// Engine is one SQLite connection.
type Engine struct {
	dbms.SQLBase
	path string
	dsn  string
}

var _ dbms.Engine = (*Engine)(nil)
var _ dbms.CacheFlusher = (*Engine)(nil)

func open(ctx context.Context, u *dbms.URL) (dbms.Engine, error) {
	if dir := filepath.Dir(u.Path); dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("cannot open SQLite file %s: directory %s does not exist", u.Path, dir))
		}
	}
	// The URL's query parameters are passed on as go-sqlite3 DSN options
	// (_journal_mode, _synchronous, _cache_size ...).
	dsn := "file:" + u.Path
	if len(u.Query) > 0 {
		dsn += "?" + u.Query.Encode()
	}
	e := &Engine{path: u.Path, dsn: dsn}
	if err := e.connect(ctx); err != nil {
		err = fmt.Errorf("cannot open SQLite file %s: %w", u.Path, classify(err))
		if errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) || ctx.Err() != nil {
			return nil, err // out of descriptors, or stopped: no bad path
		}
		return nil, dbms.Wrap(dbms.BadInput, err)
	}
	return e, nil
}

func (e *Engine) connect(ctx context.Context) error {
	db, conn, err := dbms.OpenSQL(ctx, "sqlite3", e.dsn)
	if err != nil {
		return err
	}
	// DirectStmts: prepared statements run on go-sqlite3's own statement,
	// past database/sql's per-call machinery; Unwatched: without a watch of
	// the context per statement (docs/client-cost.md).
	e.SQLBase = dbms.SQLBase{DB: db, Conn: conn, TypeName: dbms.StandardType, ClassifyErr: classify, DirectStmts: true, Unwatched: true}
	return nil
}

// Name is the adapter name.
func (e *Engine) Name() string { return "sqlite" }

// Load inserts all rows with one prepared statement in one transaction, the
// fastest path SQLite offers (it has no bulk-load protocol).
//
// Values go in as the RowSource gives them, but for times: a time.Time
// would be stored as text with its zone ("...-05:00"); Load stores its UTC
// reading as "2006-01-02 15:04:05", the form of SQLite's own
// CURRENT_TIMESTAMP, so that stored and engine-made times compare as text.
// Decimals are text that the column's NUMERIC affinity (what SQLite makes
// of DECIMAL(p,s)) turns into an integer or a double (InexactDecimal).
//
// The transaction and the inserts run under ctx without its cancellation,
// and Load looks at ctx itself before every row. go-sqlite3 runs an Exec
// whose context can be cancelled on a goroutine of its own: a goroutine and
// a channel per row nearly doubled the time of a DSBENCH population
// (docs/client-cost.md); one insert takes microseconds, so stopping between
// rows is as prompt. And database/sql rolls back a transaction whose context
// ends on a goroutine of its own, which could still be running when Load
// had returned; here the deferred Rollback does it before Load returns.
func (e *Engine) Load(ctx context.Context, t dbms.Table, rows dbms.RowSource) (int64, error) {
	marks := strings.TrimSuffix(strings.Repeat("?,", len(t.Columns)), ",")
	quiet := context.WithoutCancel(ctx)
	tx, err := e.Conn.BeginTx(quiet, nil)
	if err != nil {
		return 0, classify(err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(quiet, fmt.Sprintf("INSERT INTO %s VALUES (%s)", t.Name, marks))
	if err != nil {
		return 0, classify(err)
	}
	defer stmt.Close()
	row := make([]any, len(t.Columns))
	var n int64
	times := t.ColumnsOf(dbms.Timestamp)
	for rows.Next(row) {
		for _, i := range times {
			if v, ok := row[i].(time.Time); ok {
				row[i] = v.UTC().Format(timeLayout)
			}
		}
		err := ctx.Err()
		if err == nil {
			_, err = stmt.ExecContext(quiet, row...)
		}
		if err != nil {
			return n, classify(fmt.Errorf("load %s row %d: %w", t.Name, n, err))
		}
		n++
	}
	return n, classify(tx.Commit())
}

// timeLayout is how Load stores a Timestamp: CURRENT_TIMESTAMP's form, with
// a fraction only when there is one.
const timeLayout = "2006-01-02 15:04:05.999999"

var _ dbms.InexactDecimal = (*Engine)(nil)

// InexactDecimal says why SQLite's decimals are not exact.
func (e *Engine) InexactDecimal() string {
	return "SQLite stores DECIMAL values as integers or binary doubles (NUMERIC affinity): sums of fractions can be off in the last binary digits"
}

// Cluster rebuilds the table with column as its primary key in a WITHOUT
// ROWID table, SQLite's true clustered storage: rows live in the primary-key
// B-tree, ordered on column. The index name is the table's primary key.
func (e *Engine) Cluster(ctx context.Context, t dbms.Table, name, column string) error {
	tmp := t.Name + "_clu"
	cols := e.ColumnList(t.Columns)
	stmts := []string{
		"DROP TABLE IF EXISTS " + tmp,
		fmt.Sprintf("CREATE TABLE %s (%s, PRIMARY KEY (%s)) WITHOUT ROWID", tmp, cols, column),
		fmt.Sprintf("INSERT INTO %s SELECT * FROM %s ORDER BY %s", tmp, t.Name, column),
		"DROP TABLE " + t.Name,
		fmt.Sprintf("ALTER TABLE %s RENAME TO %s", tmp, t.Name),
	}
	for _, s := range stmts {
		if _, err := e.Exec(ctx, s); err != nil {
			return fmt.Errorf("cluster %s on %s: %w", t.Name, column, err)
		}
	}
	return e.Analyze(ctx, t.Name)
}

// DropIndex drops a secondary index; the clustered "index" is the table's
// primary key and goes only with the table.
func (e *Engine) DropIndex(ctx context.Context, table, name string) error {
	_, err := e.Exec(ctx, "DROP INDEX IF EXISTS "+name)
	return err
}

// Analyze refreshes the statistics the planner uses.
func (e *Engine) Analyze(ctx context.Context, table string) error {
	_, err := e.Exec(ctx, "ANALYZE "+table)
	return err
}

// CreateIndex builds a B-tree index; SQLite has no hash index.
func (e *Engine) CreateIndex(ctx context.Context, table, name, column string, kind dbms.IndexKind, unique bool) error {
	if kind == dbms.Hash {
		return fmt.Errorf("SQLite has only B-tree indexes: %w", dbms.ErrNotSupported)
	}
	return e.SQLBase.CreateIndex(ctx, table, name, column, kind, unique)
}

// Info reports the version and the cache settings.
func (e *Engine) Info(ctx context.Context) (dbms.Info, error) {
	info := dbms.Info{Engine: "sqlite", Driver: "github.com/mattn/go-sqlite3", DriverVersion: dbms.ModuleVersion("github.com/mattn/go-sqlite3"), Settings: map[string]string{}}
	v, err := e.QueryValue(ctx, "SELECT sqlite_version()")
	if err != nil {
		return info, err
	}
	info.Version = v
	for _, p := range []string{"page_size", "cache_size", "journal_mode", "synchronous", "mmap_size", "temp_store"} {
		if v, err := e.QueryValue(ctx, "PRAGMA "+p); err == nil {
			info.Settings[p] = v
		}
	}
	var page, cache int64
	fmt.Sscan(info.Settings["page_size"], &page)
	fmt.Sscan(info.Settings["cache_size"], &cache)
	// cache_size is in pages when positive and in KiB when negative.
	if cache < 0 {
		info.BufferPoolBytes = -cache * 1024
	} else {
		info.BufferPoolBytes = cache * page
	}
	info.Settings["path"] = e.path
	return info, nil
}

// FlushCache closes and reopens the connection: SQLite's page cache belongs
// to the connection, so a new one starts empty.
func (e *Engine) FlushCache(ctx context.Context) ([]string, []string, error) {
	if err := e.Close(); err != nil {
		return nil, nil, err
	}
	if err := e.connect(ctx); err != nil {
		return nil, nil, err
	}
	return []string{"SQLite page cache (connection reopened)"}, nil, nil
}

func classify(err error) error {
	if err == nil {
		return nil
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		if se.SystemErrno == syscall.EMFILE || se.SystemErrno == syscall.ENFILE {
			// Out of file descriptors: a limit met at run time, not the
			// user's bad path; the errno is kept for errors.Is.
			return withErrno{err, se.SystemErrno}
		}
		if se.Code == sqlite3.ErrFull {
			// SQLite keeps no errno for a full disk (os_unix.c clears it),
			// so its "database or disk is full" is said in full here.
			return fmt.Errorf("%w (no space left on device, or the database reached its max_page_count)", err)
		}
		switch se.Code {
		case sqlite3.ErrBusy, sqlite3.ErrLocked:
			// SQLite serializes writers on one lock of the whole database
			// and finds no deadlocks: a transaction that cannot have the
			// lock (BUSY after the busy timeout, BUSY_SNAPSHOT for a read
			// snapshot too old to write in WAL mode, LOCKED within one
			// process) could not be serialized with the others, which is
			// a serialization failure (docs/retries.md).
			return dbms.Wrap(dbms.Serialization, err)
		case sqlite3.ErrCantOpen, sqlite3.ErrPerm, sqlite3.ErrReadonly, sqlite3.ErrNotADB:
			return dbms.Wrap(dbms.BadInput, err)
		case sqlite3.ErrError:
			if strings.Contains(se.Error(), "syntax error") {
				return dbms.Wrap(dbms.Syntax, err)
			}
		}
	}
	return err
}

// embeddedURL makes SQLite the engine experiments run on without --db: a
// database file at path; shared adds the write-ahead log and a busy
// timeout of 10 s instead of failing at once on a locked database, for
// many sessions writing at once.
func embeddedURL(path string, shared bool) string {
	if shared {
		return "sqlite:" + path + "?_journal_mode=WAL&_busy_timeout=10000"
	}
	return "sqlite:" + path
}

// withErrno is an error that says what err says and is also errno for
// errors.Is (go-sqlite3 keeps the errno in a field, not in its chain).
type withErrno struct {
	err   error
	errno syscall.Errno
}

func (e withErrno) Error() string   { return e.err.Error() }
func (e withErrno) Unwrap() []error { return []error{e.err, e.errno} }

var _ dbms.ConcurrentLoader = (*Engine)(nil)

// LoadSessions is 1: SQLite has one writer per database; a second
// session's Load would wait for the first one's transaction to end.
func (e *Engine) LoadSessions() int { return 1 }
