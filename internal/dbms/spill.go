package dbms

import "context"

// SpillDirectory is an engine that writes the temporary files of a query
// that does not fit its memory into a directory of this machine (DuckDB's
// temp_directory) and removes them when the query ends. The speedup
// experiment calls it before the warm-up of a point and watches the
// directory while the query runs to report the largest spill. "" (or an
// error) means there is nothing to watch.
type SpillDirectory interface {
	SpillDirectory(ctx context.Context) (string, error)
}
