package firebird

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.DummyTable = (*Engine)(nil)

// DummyTable: Firebird's SELECT needs a table; RDB$DATABASE has one row.
func (e *Engine) DummyTable() string { return "RDB$DATABASE" }
