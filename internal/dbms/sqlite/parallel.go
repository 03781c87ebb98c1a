package sqlite

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.SerialQuery = (*Engine)(nil)

// SerialQuery: a statement runs in the calling thread.
func (e *Engine) SerialQuery() string {
	return "SQLite runs one statement in one thread (no intra-query parallelism)"
}
