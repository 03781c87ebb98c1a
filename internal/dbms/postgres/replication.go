package postgres

import (
	"context"
	"time"
)

// Position is how far this node's WAL goes (dbms.Replicator): the
// primary's current location, a standby's last replayed one.
func (e *Engine) Position(ctx context.Context) (string, error) {
	var pos string
	err := e.conn.QueryRow(ctx, `SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END::text`).Scan(&pos)
	if err != nil {
		return "", e.classify(err)
	}
	return pos, nil
}

// WaitPosition waits until a standby has replayed the WAL up to pos; a
// primary has it already. PostgreSQL has no call that waits for replay,
// so it asks every 10 ms.
func (e *Engine) WaitPosition(ctx context.Context, pos string) error {
	for {
		var done bool
		err := e.conn.QueryRow(ctx, `SELECT NOT pg_is_in_recovery() OR pg_last_wal_replay_lsn() >= $1::pg_lsn`, pos).Scan(&done)
		if err != nil {
			return e.classify(err)
		}
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}
