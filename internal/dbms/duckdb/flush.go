package duckdb

import (
	"context"
	"fmt"
	"sync"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// sessions counts this process's open Engines per database file. The driver
// keeps one DuckDB instance per file and process (its instance cache), and
// the buffer manager belongs to that instance: FlushCache can only empty it
// when no other session keeps the instance alive. A package variable because
// the instance cache it mirrors is process-wide; it is touched only on open,
// close and flush, never per statement.
var sessions = &sessionCount{n: map[string]int{}}

type sessionCount struct {
	mu sync.Mutex
	n  map[string]int
}

func (s *sessionCount) add(path string) {
	s.mu.Lock()
	s.n[path]++
	s.mu.Unlock()
}

func (s *sessionCount) remove(path string) {
	s.mu.Lock()
	if s.n[path]--; s.n[path] <= 0 {
		delete(s.n, path)
	}
	s.mu.Unlock()
}

func (s *sessionCount) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n[path]
}

// osCache is what no flush of DuckDB's can do: DuckDB reads its file through
// the operating system's page cache.
const osCache = "the operating system's page cache may still hold the database file (DuckDB does not use direct I/O; dropping it needs root: /proc/sys/vm/drop_caches)"

// FlushCache empties DuckDB's buffer manager. It has no statement for that:
// the buffer manager lives as long as the database instance, so the only way
// is to close the database and open it again. For a file database FlushCache
// does that, and the Engine goes on with a new connection: session state
// (SET options, temporary tables, an open transaction) is lost. An in-memory
// database cannot be reopened without losing its data.
func (e *Engine) FlushCache(ctx context.Context) (done, notDone []string, err error) {
	if e.path == "" {
		return nil, []string{"DuckDB buffer manager not emptied: an in-memory database keeps its only copy of the data there, and closing it would lose the tables"}, nil
	}
	if n := sessions.count(e.path); n > 1 {
		return nil, []string{fmt.Sprintf("DuckDB buffer manager not emptied: %d other sessions of this process hold %s open, and the database instance (with its buffers) lives until the last one closes", n-1, e.path), osCache}, nil
	}
	if err := e.SQLBase.Close(); err != nil {
		return nil, nil, dbms.Wrap(dbms.ConnectionLost, fmt.Errorf("close DuckDB file %s to empty its buffers: %w", e.path, err))
	}
	if err := e.connect(ctx); err != nil {
		e.closed = true
		sessions.remove(e.path)
		return nil, nil, dbms.Wrap(dbms.ConnectionLost, fmt.Errorf("reopen DuckDB file %s after emptying its buffers: %w", e.path, err))
	}
	done = []string{"closed and reopened the DuckDB database " + e.path + ": its buffer manager starts empty (session settings made with SET were reset)"}
	return done, []string{osCache}, nil
}
