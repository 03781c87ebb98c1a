package duckdb

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.FixedPageSize = (*Engine)(nil)

// FixedPageSize: dbgauge does not vary DuckDB's block size.
func (e *Engine) FixedPageSize() string {
	return "DuckDB's block size is fixed for a database file by the build (dbgauge does not vary it)"
}
