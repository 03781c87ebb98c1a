package postgres

import "context"

// ReadOnly says whether the session may not write (dbms.ReadOnlyReporter):
// a hot standby, in recovery, takes reads only.
func (e *Engine) ReadOnly(ctx context.Context) (bool, error) {
	var ro bool
	if err := e.conn.QueryRow(ctx, "SELECT pg_is_in_recovery()").Scan(&ro); err != nil {
		return false, e.classify(err)
	}
	return ro, nil
}
