package postgres

import (
	"context"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var (
	_ dbms.ProcessReporter = (*Engine)(nil)
	_ dbms.Explainer       = (*Engine)(nil)
)

// QueryProcess is the backend serving this session (one process per
// connection in PostgreSQL).
func (e *Engine) QueryProcess(ctx context.Context) (dbms.Process, error) {
	pid, err := e.BackendPID(ctx)
	if err != nil {
		return dbms.Process{}, err
	}
	return dbms.Process{PID: pid, How: "pg_backend_pid()"}, nil
}

// Explain returns EXPLAIN (COSTS OFF): the plan's shape without the
// estimates, which move with the statistics.
func (e *Engine) Explain(ctx context.Context, query string) (string, error) {
	rows, err := e.QueryRows(ctx, "EXPLAIN (COSTS OFF) "+query)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, r := range rows {
		if len(r) > 0 {
			b.WriteString(r[0])
			b.WriteByte('\n')
		}
	}
	return b.String(), nil
}

var _ dbms.SingleProcesser = (*Engine)(nil)

// SingleProcess switches parallel query off for the session: parallel
// workers are processes of their own that come and go within a query.
func (e *Engine) SingleProcess(ctx context.Context) (string, error) {
	if _, err := e.Exec(ctx, "SET max_parallel_workers_per_gather = 0"); err != nil {
		return "", err
	}
	return "PostgreSQL ran without parallel workers (max_parallel_workers_per_gather = 0), so that one query process evaluates the query", nil
}
