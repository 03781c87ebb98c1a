// Package duckdb is dbgauge's adapter for DuckDB, embedded in the process
// through the official driver github.com/duckdb/duckdb-go/v2.
//
// URLs: duckdb:PATH (a database file, created if missing) or duckdb::memory:
// (in-memory). Query parameters become DuckDB configuration settings, e.g.
// duckdb:/tmp/w.db?threads=2&memory_limit=1GB.
package duckdb

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" database/sql driver

	"github.com/dbgauge/dbgauge/internal/dbms"
)

const (
	// driverModule is the Go module of the driver, for Info.
	driverModule = "github.com/duckdb/duckdb-go/v2"
	memoryPath   = ":memory:"
)

func init() {
	dbms.Register(&dbms.Adapter{Name: "duckdb", Schemes: []string{"duckdb"}, Open: open,
		// The duckdb command-line shell.
		Processes:    []dbms.ProcessName{{Comm: "duckdb", Product: "DuckDB"}},
		FileSuffixes: []string{".duckdb", ".duckdb.wal", ".db.wal"}, NoProcedures: true})
}

// Engine is one DuckDB connection, pinned for the whole session.
type Engine struct {
	dbms.SQLBase
	// path is the absolute database file, "" for an in-memory database.
	path string
	// dsn is what the driver was opened with, kept to reopen in FlushCache.
	dsn    string
	closed bool
}

var (
	_ dbms.Engine       = (*Engine)(nil)
	_ dbms.CacheFlusher = (*Engine)(nil)
)

func open(ctx context.Context, u *dbms.URL) (dbms.Engine, error) {
	e := &Engine{}
	where := "in-memory DuckDB database"
	if u.Path != memoryPath {
		abs, err := filepath.Abs(u.Path)
		if err != nil {
			return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("cannot open DuckDB file %s: %w", u.Path, err))
		}
		// DuckDB's own message for a missing directory ("No such file or
		// directory") does not say which part is missing.
		if dir := filepath.Dir(abs); !isDir(dir) {
			return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("cannot open DuckDB file %s: directory %s does not exist (create it first)", abs, dir))
		}
		e.path, where = abs, "DuckDB file "+abs
	}
	e.dsn = dsn(e.path, u.Query)
	if err := e.connect(ctx); err != nil {
		return nil, openError(where, err)
	}
	sessions.add(e.path)
	return e, nil
}

// dsn renders the driver's data source name: the path, then the settings as
// a query string, which the driver applies to the database configuration.
func dsn(path string, settings url.Values) string {
	s := path
	if s == "" {
		s = memoryPath
	}
	if len(settings) > 0 {
		s += "?" + settings.Encode()
	}
	return s
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func (e *Engine) connect(ctx context.Context) error {
	db, conn, err := dbms.OpenSQL(ctx, "duckdb", e.dsn)
	if err != nil {
		return err
	}
	// DirectStmts: prepared statements run on duckdb-go's own statement,
	// past database/sql's per-call machinery (docs/client-cost.md).
	e.SQLBase = dbms.SQLBase{DB: db, Conn: conn, TypeName: typeName, ClassifyErr: classify, DirectStmts: true}
	return nil
}

// Name is the adapter name.
func (e *Engine) Name() string { return "duckdb" }

// Close ends the session. For a file database the DuckDB instance (and its
// buffer manager) goes away with the last session of this process on it.
func (e *Engine) Close() error {
	if e.closed {
		return nil
	}
	e.closed = true
	sessions.remove(e.path)
	return e.SQLBase.Close()
}

func typeName(c dbms.Column) string {
	switch c.Type {
	case dbms.Char:
		// DuckDB has no fixed-width character type: CHAR(n) and VARCHAR(n)
		// are plain VARCHAR, the length neither checked nor padded. Padding
		// the values to Len is the caller's business.
		return "VARCHAR"
	case dbms.Varchar:
		return "VARCHAR"
	case dbms.Decimal:
		return dbms.StandardType(c)
	case dbms.BigInt:
		return "BIGINT"
	case dbms.Timestamp:
		return "TIMESTAMP"
	default:
		return "INTEGER"
	}
}
