// Package dbms is dbgauge's engine layer: one small interface every engine
// adapter implements, optional abilities found by type assertion, URL parsing,
// and the classification of engine errors. It knows nothing of benchmarks:
// workloads describe tables, columns and SQL; adapters say how this engine
// stores, loads and indexes them.
package dbms

import (
	"context"
	"errors"
	"time"
)

// Engine is one open session to a database engine. The benchmark code talks
// to an engine only through this interface and the optional ones below.
//
// An Engine holds one connection (one server session), so session settings,
// temporary state and the query process stay the same for the whole run. It is
// not safe for concurrent use; load drivers open one Engine per client.
type Engine interface {
	// Name is the registered adapter name: postgres, mysql, sqlite, duckdb, firebird.
	Name() string
	// Exec runs a statement and returns the number of rows it affected
	// (-1 when the engine does not say).
	Exec(ctx context.Context, sql string) (int64, error)
	// QueryCount runs a query, fetches every row to the client, discards it,
	// and returns how many rows came back.
	QueryCount(ctx context.Context, sql string) (int64, error)
	// QueryRows runs a query and returns all rows as strings (NULL as ""). It
	// is meant for small results: settings, plans, verification.
	QueryRows(ctx context.Context, sql string) ([][]string, error)
	// Info describes the engine: versions and the settings that matter.
	Info(ctx context.Context) (Info, error)
	// Close ends the session.
	Close() error
	Schema
}

// Info is what a run records about the engine it measured.
type Info struct {
	Engine        string            `json:"engine"`
	Version       string            `json:"engine_version"`
	Driver        string            `json:"driver"`
	DriverVersion string            `json:"driver_version"`
	Settings      map[string]string `json:"settings"`
	// BufferPoolBytes is the engine's own data cache size, 0 when unknown.
	BufferPoolBytes int64 `json:"buffer_pool_bytes"`
}

// ColumnType is the small type system workloads describe tables with.
type ColumnType int

const (
	// Int is a four-byte signed integer.
	Int ColumnType = iota
	// BigInt is an eight-byte signed integer.
	BigInt
	// Char is fixed-width text of Column.Len characters.
	Char
	// Timestamp is a date and time without a time zone, to the second
	// (engines differ in the fraction they keep; MariaDB's keeps none).
	Timestamp
	// Varchar is text of at most Column.Len characters, stored as given.
	Varchar
	// Decimal is an exact fixed-point number of Column.Len digits, Scale of
	// them after the point (DECIMAL(Len, Scale)): money and rates that a
	// consistency check compares for equality.
	Decimal
)

// Column is one column of a table a workload asks for.
type Column struct {
	Name string
	Type ColumnType
	Len  int // for Char and Varchar: characters; for Decimal: digits
	// Scale is the digits after the point of a Decimal.
	Scale int
}

// Table is a table definition: the adapter renders it in its own dialect.
type Table struct {
	Name    string
	Columns []Column
}

// RowSource streams rows for a bulk load. Next fills row (len(row) ==
// len(Table.Columns)) and returns false when there are no more rows. A value
// is, by its column's type:
//
//	Int, BigInt   int64
//	Char, Varchar string of at most Len characters (Firebird's external
//	              files: bytes). A Varchar is stored as given; a Char is
//	              padded to Len with blanks, but on DuckDB, which has no
//	              fixed-width text: pad it where it matters.
//	Decimal       string in plain decimal notation ("-10.00", "300000.00",
//	              "0.1234"; no exponent, no spaces), stored exactly as
//	              DECIMAL(Len, Scale); more fraction digits than Scale are
//	              the caller's mistake (engines round, truncate or fail).
//	              SQLite alone stores what its NUMERIC affinity makes of the
//	              text (an integer or a binary double: see InexactDecimal).
//	Timestamp     time.Time, stored as its reading in UTC (t.UTC()) without
//	              a zone; whole seconds are kept everywhere.
//
// and nil in any column is SQL NULL. Next sets every value of row (the
// slice still holds the previous row's). Sources are read once, by one
// goroutine; they must not be retained after Load returns.
type RowSource interface {
	Next(row []any) bool
}

// IndexKind is the access method of an index.
type IndexKind int

const (
	BTree IndexKind = iota
	Hash
)

func (k IndexKind) String() string {
	if k == Hash {
		return "hash"
	}
	return "btree"
}

// Schema is what every adapter can do with tables: create, fill, index,
// cluster and drop them. Dialect differences (types, CREATE TABLE AS,
// index syntax) live behind it.
type Schema interface {
	CreateTable(ctx context.Context, t Table) error
	DropTable(ctx context.Context, name string) error
	// Load fills table t (already created) from rows through the engine's
	// fastest bulk path and returns how many rows were loaded.
	Load(ctx context.Context, t Table, rows RowSource) (int64, error)
	// CreateIndex builds an index; an access method the engine lacks returns an
	// error wrapping ErrNotSupported that says why.
	CreateIndex(ctx context.Context, table, name, column string, kind IndexKind, unique bool) error
	DropIndex(ctx context.Context, table, name string) error
	// Cluster makes the table physically ordered on column with an index on it
	// (named name), by the engine's own clustered storage where it has one.
	Cluster(ctx context.Context, t Table, name, column string) error
	// CreateTableAs stores the result of a query into a new table whose
	// columns are cols (engines without CREATE TABLE AS create and insert).
	// Callers count the stored rows themselves, outside any timed region.
	CreateTableAs(ctx context.Context, name, query string, cols []Column) error
	// Analyze refreshes the optimizer statistics of a table.
	Analyze(ctx context.Context, table string) error
}

// CacheFlusher is an engine that can empty its own data cache. It reports
// what it did and what it could not do, in words for the run's record.
type CacheFlusher interface {
	FlushCache(ctx context.Context) (done []string, notDone []string, err error)
}

// ErrNotSupported marks an ability the engine does not have. Errors wrapping
// it carry the reason, for "not applicable" reports.
var ErrNotSupported = errors.New("not supported by this engine")

// StatementLimiter is an engine whose server can abort any statement that
// runs longer than d by itself, leaving the session usable (a cancelled
// client call may cost the connection on some drivers). d = 0 removes it.
type StatementLimiter interface {
	SetStatementLimit(ctx context.Context, d time.Duration) error
}

// Reconnecter is an engine that can replace its session with a fresh one,
// for use after a cancelled statement left the old one unusable.
type Reconnecter interface {
	Reconnect(ctx context.Context) error
}

// Aborter is an engine whose calls a context cannot interrupt: its
// connection blocks in the kernel (package blockio, the cheap client path).
// Abort, from any goroutine, breaks the connection so that a call blocked in
// it returns at once with an error of class ConnectionLost; the session is
// unusable afterwards (Reconnect or Close it). Callers that run many calls
// under one context (the load driver) pass the calls a context without
// cancellation, which spares the per-call watch of the context, and call
// Abort once when the context ends. A server that stops answering fails the
// call after the URL's io_timeout.
type Aborter interface {
	Abort()
}
