package postgres

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.FixedPageSize = (*Engine)(nil)

// FixedPageSize: the page size is a build option.
func (e *Engine) FixedPageSize() string {
	return "PostgreSQL's page size (BLCKSZ) is fixed when the server is built"
}
