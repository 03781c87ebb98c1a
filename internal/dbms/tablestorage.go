package dbms

import "context"

// FillFactorer is an engine whose tables take a fill factor: the share of
// each data page a load fills, leaving the rest for updated rows to stay on
// their page (PostgreSQL's fillfactor). Set on an empty table, it applies
// to the load that follows.
type FillFactorer interface {
	SetFillFactor(ctx context.Context, table string, percent int) error
}

// Unlogger is an engine whose tables can bypass its write-ahead log
// (PostgreSQL's unlogged tables: faster writes, emptied after a crash).
type Unlogger interface {
	SetUnlogged(ctx context.Context, table string) error
}

// Vacuumer is an engine that reclaims a table's dead rows and refreshes
// its statistics in one pass (PostgreSQL's VACUUM ANALYZE, which also sets
// the visibility map that index-only scans read). Engines without it
// refresh statistics with Schema.Analyze.
type Vacuumer interface {
	VacuumAnalyze(ctx context.Context, table string) error
}

// NotNuller is an engine that can declare an existing column NOT NULL
// without restating its type (PostgreSQL's ALTER COLUMN ... SET NOT NULL),
// for a table created through Schema, whose columns take NULL. Elsewhere a
// primary key makes its columns NOT NULL.
type NotNuller interface {
	SetNotNull(ctx context.Context, table, column string) error
}
