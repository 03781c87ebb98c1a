package mysql

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.SerialQuery = (*Engine)(nil)

// SerialQuery: a query runs in its connection's thread.
func (e *Engine) SerialQuery() string {
	return "MariaDB/MySQL run one query in one thread (no intra-query parallelism)"
}
