package postgres

import (
	"context"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var _ dbms.Instrumented = (*Engine)(nil)

// instrumentationSettings decide what the server records of a session's
// statements: the libraries loaded (pg_stat_statements, auto_explain),
// the query identifier computed for them, I/O timing, and
// pg_stat_statements' own settings (present when it is loaded).
var instrumentationSettings = []string{
	"shared_preload_libraries", "session_preload_libraries", "compute_query_id", "track_io_timing",
	"log_min_duration_statement", "log_statement",
}

// Instrumentation reads them as this session has them (a session may
// have turned pg_stat_statements' tracking on for itself).
func (e *Engine) Instrumentation(ctx context.Context) (map[string]string, error) {
	rows, err := e.QueryRows(ctx, "SELECT name, current_setting(name) FROM pg_settings WHERE name IN ('"+
		strings.Join(instrumentationSettings, "', '")+"') OR name LIKE 'pg\\_stat\\_statements.%' OR name LIKE 'auto\\_explain.%'")
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r[0]] = r[1]
	}
	return out, nil
}
