package mysql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// ReadOnly says whether the session may not write (dbms.ReadOnlyReporter):
// a server started read-only. A Galera node that is not ready (outside
// its cluster's primary component, or still joining) is no use at all:
// its error sends a multi-host URL on to the next host.
func (e *Engine) ReadOnly(ctx context.Context) (bool, error) {
	var name, ready string
	err := e.Conn.QueryRowContext(ctx, "SHOW STATUS LIKE 'wsrep_ready'").Scan(&name, &ready)
	switch {
	case errors.Is(err, sql.ErrNoRows): // no Galera
	case err != nil:
		return false, e.classify(err)
	case ready != "ON":
		return false, dbms.Wrap(dbms.ServerUnavailable, fmt.Errorf("wsrep_ready is %s: the Galera node is not in its cluster's primary component", ready))
	}
	var ro int64
	if err := e.Conn.QueryRowContext(ctx, "SELECT @@global.read_only").Scan(&ro); err != nil {
		return false, e.classify(err)
	}
	return ro != 0, nil
}

// SyncReads makes the session's reads causal on a Galera node
// (dbms.SyncReader): wsrep_sync_wait = 1 waits, before each read, until
// the node has applied what the cluster committed. Without Galera there
// is nothing to wait for.
func (e *Engine) SyncReads(ctx context.Context) error {
	if !e.galera(ctx) {
		return nil
	}
	if _, err := e.Conn.ExecContext(ctx, "SET SESSION wsrep_sync_wait = 1"); err != nil {
		return e.classify(err)
	}
	return nil
}

// Position is the last Galera transaction this node has seen committed
// (dbms.Replicator); "" on a server without Galera.
func (e *Engine) Position(ctx context.Context) (string, error) {
	if !e.galera(ctx) {
		return "", nil
	}
	var gtid sql.NullString
	if err := e.Conn.QueryRowContext(ctx, "SELECT WSREP_LAST_SEEN_GTID()").Scan(&gtid); err != nil {
		return "", e.classify(err)
	}
	return gtid.String, nil
}

// WaitPosition waits until this Galera node has applied the transaction
// pos (another node's Position): WSREP_SYNC_WAIT_UPTO_GTID, for at most
// the time ctx leaves (at least a second).
func (e *Engine) WaitPosition(ctx context.Context, pos string) error {
	if pos == "" || !e.galera(ctx) {
		return nil
	}
	limit := 600
	if d, ok := ctx.Deadline(); ok {
		limit = max(int(time.Until(d).Seconds()), 1)
	}
	var ok sql.NullInt64
	if err := e.Conn.QueryRowContext(ctx, "SELECT WSREP_SYNC_WAIT_UPTO_GTID(?, ?)", pos, limit).Scan(&ok); err != nil {
		return e.classify(err)
	}
	return nil
}

// galera says whether the server replicates with Galera (wsrep_on),
// asked once per session: the server's setting, not the session's.
func (e *Engine) galera(ctx context.Context) bool {
	if e.wsrep == 0 {
		var name, on string
		err := e.Conn.QueryRowContext(ctx, "SHOW VARIABLES LIKE 'wsrep_on'").Scan(&name, &on)
		if err != nil {
			return false // not known: asked again next time
		}
		e.wsrep = 2
		if on == "ON" {
			e.wsrep = 1
		}
	}
	return e.wsrep == 1
}
