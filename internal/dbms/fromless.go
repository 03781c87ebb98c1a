package dbms

// DummyTable is an engine whose SELECT needs a FROM clause even when it
// selects only expressions: DummyTable names the one-row table to select
// from (Firebird's RDB$DATABASE). Workloads that select scalar subqueries
// (tpcb's consistency check) append " FROM " and it; without it a SELECT
// without FROM is sent as it is.
type DummyTable interface {
	DummyTable() string
}

// SingleRowValues is an engine whose INSERT ... VALUES takes one row only
// (Firebird 3 has no row-value list): a workload that inserts several rows
// in one statement elsewhere sends one statement per row to it.
type SingleRowValues interface {
	SingleRowValues()
}
