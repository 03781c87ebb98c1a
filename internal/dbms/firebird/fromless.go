package firebird

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.DummyTable = (*Engine)(nil)

// DummyTable: Firebird's SELECT needs a table; RDB$DATABASE has one row.
func (e *Engine) DummyTable() string { return "RDB$DATABASE" }

var _ dbms.SingleRowValues = (*Engine)(nil)

// SingleRowValues: Firebird 3's INSERT takes one row of VALUES.
func (e *Engine) SingleRowValues() {}
