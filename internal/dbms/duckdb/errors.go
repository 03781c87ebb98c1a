package duckdb

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// classify attaches a dbms class to a DuckDB error. DuckDB errors are typed
// (duckdb.Error.Type); errors it cannot place are returned as they are, so
// that dbms.Classify can still recognise context deadlines in them.
func classify(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrConnDone) || errors.Is(err, driver.ErrBadConn) {
		return dbms.Wrap(dbms.ConnectionLost, err)
	}
	var de *duckdb.Error
	if !errors.As(err, &de) {
		return err
	}
	switch de.Type {
	case duckdb.ErrorTypeParser, duckdb.ErrorTypeSyntax, duckdb.ErrorTypeBinder, duckdb.ErrorTypeCatalog:
		// Binder (unknown column) and Catalog (unknown table) errors are SQL
		// the engine rejected too, like PostgreSQL's class 42.
		return dbms.Wrap(dbms.Syntax, err)
	case duckdb.ErrorTypeTransaction:
		// "Conflict on update!", "write-write conflict": optimistic
		// concurrency control found a concurrent write, a serialization
		// failure (DuckDB takes no locks, so it has no deadlocks). Other
		// transaction errors (BEGIN inside a transaction) are misuse.
		if strings.Contains(strings.ToLower(de.Msg), "conflict") {
			return dbms.Wrap(dbms.Serialization, err)
		}
	case duckdb.ErrorTypeFatal, duckdb.ErrorTypeConnection:
		// A FATAL error invalidates the database instance: only reopening it helps.
		return dbms.Wrap(dbms.ConnectionLost, err)
	}
	return err
}

// openError turns a failure to open the database into one BadInput line:
// every way opening an embedded database fails is the user's to fix (path,
// permissions, a file another process locks, a bad setting in the URL).
func openError(where string, err error) error {
	msg := err.Error()
	var de *duckdb.Error
	if errors.As(err, &de) {
		msg = strings.ReplaceAll(de.Msg, "\n", " ")
	}
	if strings.Contains(msg, "could not set invalid or local option") {
		_, opt, _ := strings.Cut(msg, "global database config: ")
		return dbms.Wrap(dbms.BadInput, fmt.Errorf("cannot open %s: invalid DuckDB setting %q in the URL (the query parameters of --db are DuckDB settings, the names duckdb_settings() lists, e.g. threads, memory_limit)", where, opt))
	}
	if de != nil && de.Type == duckdb.ErrorTypeInvalidInput {
		return dbms.Wrap(dbms.BadInput, fmt.Errorf("cannot open %s: %s (the query parameters of --db are DuckDB settings, the names duckdb_settings() lists, e.g. threads, memory_limit)", where, msg))
	}
	switch {
	case strings.Contains(msg, "different configuration"):
		msg += " (every session of this process on one DuckDB file must use the same URL settings)"
	case strings.Contains(msg, "Could not set lock"):
		msg += " (DuckDB lets one process at a time write a database file: stop the other one)"
	}
	return dbms.Wrap(dbms.BadInput, fmt.Errorf("cannot open %s: %s", where, msg))
}
