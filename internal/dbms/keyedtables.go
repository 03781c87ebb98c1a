package dbms

import "context"

// KeyedTables is an engine that stores every table in its primary key
// (InnoDB's clustered index): adding the key to a loaded table rebuilds
// the whole table in key order, so a population creates such a table with
// its key and loads the rows into it, in key order, instead. Engines
// whose tables are heaps load faster without keys and add them afterwards
// (Keys); they do not implement this.
type KeyedTables interface {
	// CreateTableWithKey creates t with the primary key on columns.
	CreateTableWithKey(ctx context.Context, t Table, columns []string) error
}
