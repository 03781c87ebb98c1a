package mysql

import (
	"context"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var _ dbms.Instrumented = (*Engine)(nil)

// instrumentationConsumers are performance_schema's statement consumers:
// what it keeps of each statement of an instrumented session.
var instrumentationConsumers = []string{
	"global_instrumentation", "thread_instrumentation", "statements_digest",
	"events_statements_current", "events_statements_history", "events_statements_history_long",
}

// Instrumentation reads performance_schema (on at all, its statement
// consumers, whether this session is instrumented and kept in the
// history) and the server's query logs. A part the session may not read
// (performance_schema to a user without SELECT on it) is left out.
func (e *Engine) Instrumentation(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	rows, err := e.QueryRows(ctx, "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('performance_schema', 'general_log', 'slow_query_log')")
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r[0]] = r[1]
	}
	rows, err = e.QueryRows(ctx, "SELECT NAME, ENABLED FROM performance_schema.setup_consumers WHERE NAME IN ('"+strings.Join(instrumentationConsumers, "', '")+"')")
	if err != nil && dbms.Classify(err).SessionFault() {
		return nil, err
	}
	for _, r := range rows {
		out["performance_schema consumer "+r[0]] = r[1]
	}
	rows, err = e.QueryRows(ctx, "SELECT INSTRUMENTED, HISTORY FROM performance_schema.threads WHERE PROCESSLIST_ID = CONNECTION_ID()")
	if err != nil && dbms.Classify(err).SessionFault() {
		return nil, err
	}
	if len(rows) == 1 && len(rows[0]) == 2 {
		out["performance_schema this session instrumented"] = rows[0][0]
		out["performance_schema this session history"] = rows[0][1]
	}
	return out, nil
}
