package firebird

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.SerialQuery = (*Engine)(nil)

// SerialQuery: Firebird 3 runs a statement in one thread.
func (e *Engine) SerialQuery() string {
	return "Firebird runs one statement in one thread (no intra-query parallelism for queries)"
}
