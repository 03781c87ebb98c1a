package mysql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// ReadOnly says whether the session may not write (dbms.ReadOnlyReporter):
// a server started read-only. A Galera node that is not ready (outside
// its cluster's primary component, or still joining) is no use at all:
// its error sends a multi-host URL on to the next host. Only a server
// with Galera on (wsrep_on) is asked whether it is ready: a plain MariaDB
// built with the wsrep provider also says wsrep_ready OFF, and is no
// Galera node out of its cluster but a server that takes writes.
func (e *Engine) ReadOnly(ctx context.Context) (bool, error) {
	on, err := e.wsrepOn(ctx)
	if err != nil {
		return false, e.classify(err)
	}
	if on {
		var name, ready string
		err := e.Conn.QueryRowContext(ctx, "SHOW STATUS LIKE 'wsrep_ready'").Scan(&name, &ready)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return false, dbms.Wrap(dbms.ServerUnavailable, errors.New("wsrep_on is ON but the server reports no wsrep_ready: no Galera provider loaded"))
		case err != nil:
			return false, e.classify(err)
		case ready != "ON":
			return false, dbms.Wrap(dbms.ServerUnavailable, fmt.Errorf("wsrep_ready is %s: the Galera node is not in its cluster's primary component", ready))
		}
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

// Position is the last Galera transaction this node has committed, by its
// seqno in the cluster's history (dbms.Replicator); "" on a server
// without Galera. The seqno, not MariaDB's GTID: without
// wsrep_gtid_mode and a binary log each node counts GTIDs in memory from
// its own start, so after a node's restart the nodes' GTIDs no longer
// name the same transactions, while every node numbers a write set with
// the same seqno.
func (e *Engine) Position(ctx context.Context) (string, error) {
	if !e.galera(ctx) {
		return "", nil
	}
	n, err := e.lastCommitted(ctx)
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(n, 10), nil
}

// WaitPosition waits until this Galera node has committed the write set
// pos (another node's Position), asking every 20 ms while ctx lasts: each
// question is short, so no I/O time-out ends a long wait.
func (e *Engine) WaitPosition(ctx context.Context, pos string) error {
	if pos == "" || !e.galera(ctx) {
		return nil
	}
	want, err := strconv.ParseInt(pos, 10, 64)
	if err != nil {
		return fmt.Errorf("wait for Galera position %q: not a seqno", pos)
	}
	for {
		n, err := e.lastCommitted(ctx)
		if err != nil || n >= want {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("node at seqno %d, waiting for %d: %w", n, want, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// lastCommitted is the node's wsrep_last_committed.
func (e *Engine) lastCommitted(ctx context.Context) (int64, error) {
	var name string
	var n int64
	if err := e.Conn.QueryRowContext(ctx, "SHOW STATUS LIKE 'wsrep_last_committed'").Scan(&name, &n); err != nil {
		return 0, e.classify(err)
	}
	return n, nil
}

// galera says whether the server replicates with Galera (wsrep_on),
// asked once per session: the server's setting, not the session's.
func (e *Engine) galera(ctx context.Context) bool {
	on, err := e.wsrepOn(ctx)
	return err == nil && on // not known: asked again next time
}

// wsrepOn reads wsrep_on once per session; a server without the variable
// (MySQL, a MariaDB built without wsrep) has no Galera.
func (e *Engine) wsrepOn(ctx context.Context) (bool, error) {
	if e.wsrep == 0 {
		var name, on string
		err := e.Conn.QueryRowContext(ctx, "SHOW VARIABLES LIKE 'wsrep_on'").Scan(&name, &on)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			on = "OFF"
		case err != nil:
			return false, err
		}
		e.wsrep = 2
		if on == "ON" {
			e.wsrep = 1
		}
	}
	return e.wsrep == 1, nil
}
