package postgres

import (
	"context"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// ClusterMeasures reads the node's replication measures
// (dbms.ClusterMonitor). On a primary, per standby (by its
// application_name): the write, flush and replay lag in seconds
// (pg_stat_replication: 0 when the standby has caught up and nothing is
// written, where PostgreSQL shows NULL) and the bytes of WAL not yet
// replayed (pg_wal_lsn_diff). On a standby: the queries its WAL replay
// cancelled (pg_stat_database_conflicts, a counter, all kinds and each)
// and the WAL it received but has not replayed, in bytes.
func (e *Engine) ClusterMeasures(ctx context.Context) ([]dbms.Measure, error) {
	var standby bool
	if err := e.conn.QueryRow(ctx, "SELECT pg_is_in_recovery()").Scan(&standby); err != nil {
		return nil, e.classify(err)
	}
	if standby {
		return e.standbyMeasures(ctx)
	}
	rows, err := e.conn.Query(ctx, `SELECT application_name,
  coalesce(extract(epoch FROM write_lag), 0)::float8, coalesce(extract(epoch FROM flush_lag), 0)::float8,
  coalesce(extract(epoch FROM replay_lag), 0)::float8,
  coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn), 0)::float8
FROM pg_stat_replication ORDER BY application_name`)
	if err != nil {
		return nil, e.classify(err)
	}
	defer rows.Close()
	var out []dbms.Measure
	for rows.Next() {
		var name string
		var w, f, r, bytes float64
		if err := rows.Scan(&name, &w, &f, &r, &bytes); err != nil {
			return nil, e.classify(err)
		}
		out = append(out,
			dbms.Measure{Name: "write_lag_s@" + name, Value: w},
			dbms.Measure{Name: "flush_lag_s@" + name, Value: f},
			dbms.Measure{Name: "replay_lag_s@" + name, Value: r, Chart: dbms.ChartLag},
			dbms.Measure{Name: "replay_behind_bytes@" + name, Value: bytes})
	}
	if err := rows.Err(); err != nil {
		return nil, e.classify(err)
	}
	return append(out, dbms.Measure{Name: "standbys", Value: float64(len(out) / 4)}), nil
}

func (e *Engine) standbyMeasures(ctx context.Context) ([]dbms.Measure, error) {
	var snapshot, lock, pin, deadlock, tablespace, behind float64
	err := e.conn.QueryRow(ctx, `SELECT confl_snapshot::float8, confl_lock::float8, confl_bufferpin::float8,
  confl_deadlock::float8, confl_tablespace::float8,
  coalesce(pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()), 0)::float8
FROM pg_stat_database_conflicts WHERE datname = current_database()`).Scan(&snapshot, &lock, &pin, &deadlock, &tablespace, &behind)
	if err != nil {
		return nil, e.classify(err)
	}
	return []dbms.Measure{
		{Name: "conflicts", Value: snapshot + lock + pin + deadlock + tablespace, Counter: true, Chart: dbms.ChartConflicts},
		{Name: "conflicts_snapshot", Value: snapshot, Counter: true},
		{Name: "conflicts_lock", Value: lock, Counter: true},
		{Name: "conflicts_bufferpin", Value: pin, Counter: true},
		{Name: "conflicts_deadlock", Value: deadlock, Counter: true},
		{Name: "replay_behind_bytes", Value: behind},
	}, nil
}
