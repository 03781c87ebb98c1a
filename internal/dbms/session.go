package dbms

import (
	"context"
	"fmt"
)

// Isolation is a transaction isolation level, mapped by each adapter to the
// engine's own (Firebird: snapshot; SQLite: one writer; DuckDB: optimistic
// MVCC).
type Isolation int

const (
	RepeatableRead Isolation = iota // the default (seed 001 §2.2)
	ReadCommitted
	Serializable
)

func (i Isolation) String() string {
	return [...]string{"repeatable-read", "read-committed", "serializable"}[i]
}

// ParseIsolation reads --isolation.
func ParseIsolation(s string) (Isolation, error) {
	for i, n := range []string{"repeatable-read", "read-committed", "serializable"} {
		if s == n {
			return Isolation(i), nil
		}
	}
	return 0, fmt.Errorf("unknown isolation level %q (repeatable-read, read-committed, serializable)", s)
}

// Transactor runs short transactions with arguments: what load drivers need.
// Statements are written with ? placeholders; adapters whose engine wants
// another form ($1) rewrite them. Every adapter implements it.
//
// A Transactor is one session, used by one goroutine at a time.
type Transactor interface {
	// Begin starts a transaction at the given isolation level.
	Begin(ctx context.Context, iso Isolation) error
	Commit(ctx context.Context) error
	// Rollback ends the transaction without effect; it is safe to call when
	// no transaction is open.
	Rollback(ctx context.Context) error
	// Prepare makes stmt (with ? placeholders) ready for repeated use by
	// ExecArgs and QueryInt under the same text; without Prepare they send
	// the text each time.
	Prepare(ctx context.Context, stmt string) error
	// ExecArgs runs stmt with args and returns the rows it affected.
	ExecArgs(ctx context.Context, stmt string, args ...any) (int64, error)
	// QueryInt runs stmt with args and returns the first column of its
	// first row as an integer (ErrNoRows when there is none).
	QueryInt(ctx context.Context, stmt string, args ...any) (int64, error)
}

// ErrNoRows is returned by QueryInt when the query returns no row.
var ErrNoRows = fmt.Errorf("no rows")

// Keys adds primary and foreign keys to existing tables, a whole table at a
// time (the population steps of seed 001 §4.3 time them separately).
// Engines that only declare keys at CREATE TABLE (SQLite's foreign keys,
// DuckDB's) return an error wrapping ErrNotSupported that says so.
type Keys interface {
	AddPrimaryKey(ctx context.Context, table string, columns ...string) error
	AddForeignKey(ctx context.Context, table, column, refTable, refColumn string) error
}

// SizeReporter reports the space the engine uses for a set of tables
// (data and indexes), in bytes, measured from the engine.
type SizeReporter interface {
	TableBytes(ctx context.Context, tables ...string) (int64, error)
}
