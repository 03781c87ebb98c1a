package mysql

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var _ dbms.EngineTimer = (*Engine)(nil)

// engineTimeMark is the statement BeforeStatement runs: the session's
// statement history is read back to it.
const engineTimeMark = "SELECT 'dbgauge: engine time from here'"

// mysqlAfterReplyNote: a statement's event ends after its reply went out
// (the server's clean-up after a statement counts in its TIMER_WAIT): a
// CREATE TABLE AS's time was seen up to 0.1 ms (0.4-0.8 %) longer than
// the client's whole call.
const mysqlAfterReplyNote = "a statement's time ends after its reply was sent (the server's clean-up after it counts), so it may come out a little longer than the client's"

// EngineTiming uses performance_schema's history of the session's
// statements (events_statements_history: each statement's TIMER_WAIT,
// from the server's start of work on it to its end). It needs the server
// started with performance_schema on and the consumers
// events_statements_current and events_statements_history on (dbgauge
// server start mariadb does), and the session instrumented (thread turns
// it on where it is not). The server reports no planning time of its
// own.
func (e *Engine) EngineTiming(ctx context.Context) (dbms.EngineSource, error) {
	on, err := e.QueryInt(ctx, "SELECT @@performance_schema")
	if err != nil {
		return dbms.EngineSource{}, err
	}
	if on != 1 {
		return dbms.EngineSource{}, dbms.Wrap(dbms.Unsupported, fmt.Errorf("performance_schema is off on this server: start it with performance_schema=ON (dbgauge server start mariadb does)"))
	}
	n, err := e.QueryInt(ctx, "SELECT COUNT(*) FROM performance_schema.setup_consumers WHERE NAME IN ('events_statements_current', 'events_statements_history') AND ENABLED = 'YES'")
	if err != nil {
		return dbms.EngineSource{}, err
	}
	if n != 2 {
		return dbms.EngineSource{}, dbms.Wrap(dbms.Unsupported, fmt.Errorf("performance_schema does not keep the statements' history: start the server with performance-schema-consumer-events-statements-current=ON and performance-schema-consumer-events-statements-history=ON (dbgauge server start mariadb does)"))
	}
	if _, err := e.thread(ctx); err != nil {
		return dbms.EngineSource{}, err
	}
	return dbms.EngineSource{Name: "performance_schema", Note: mysqlAfterReplyNote}, nil
}

// thread is the session's THREAD_ID, asked once per connection. A
// session performance_schema does not instrument, or keeps no history
// of (setup_actors decides when the session starts; dbgauge's private
// servers instrument no session, so that a load's clients run without
// it), turns both on for itself, which a user allowed to update
// performance_schema may; where it may not, that is said once here
// rather than as every statement's missing time.
func (e *Engine) thread(ctx context.Context) (int64, error) {
	if e.threadID != 0 {
		return e.threadID, nil
	}
	id, instrumented, history, err := e.threadState(ctx)
	if err != nil {
		return 0, err
	}
	if instrumented != "YES" || history != "YES" {
		_, uerr := e.Conn.ExecContext(ctx, "UPDATE performance_schema.threads SET INSTRUMENTED = 'YES', HISTORY = 'YES' WHERE THREAD_ID = ?", id)
		if uerr != nil && dbms.Classify(e.classify(uerr)).SessionFault() {
			return 0, e.classify(uerr)
		}
		if uerr == nil {
			if id, instrumented, history, err = e.threadState(ctx); err != nil {
				return 0, err
			}
		}
		if instrumented != "YES" || history != "YES" {
			return 0, dbms.Wrap(dbms.Unsupported, fmt.Errorf("performance_schema does not record this session's statements (instrumented %s, history %s) and the session could not turn them on (%v): enable its user in performance_schema.setup_actors (ENABLED and HISTORY 'YES') and reconnect", instrumented, history, uerr))
		}
	}
	e.threadID = id
	return id, nil
}

// threadState is the session's thread in performance_schema and whether
// its statements are instrumented and kept in the history.
func (e *Engine) threadState(ctx context.Context) (id int64, instrumented, history string, err error) {
	if err := e.Conn.QueryRowContext(ctx, "SELECT THREAD_ID, INSTRUMENTED, HISTORY FROM performance_schema.threads WHERE PROCESSLIST_ID = ?", e.connID.Load()).Scan(&id, &instrumented, &history); err != nil {
		return 0, "", "", e.classify(err)
	}
	return id, instrumented, history, nil
}

// BeforeStatement marks the history, the session's thread known (and
// so instrumented) first: a reconnected session is asked again.
func (e *Engine) BeforeStatement(ctx context.Context) error {
	if _, err := e.thread(ctx); err != nil {
		return err
	}
	_, err := e.QueryValue(ctx, engineTimeMark)
	return err
}

// AfterStatement sums the times of the statements the history holds
// after the mark: the timed statement's (the reading statement itself is
// not in the history until it ends). Without the mark in the history
// (more statements ran than it keeps), the time is not known.
func (e *Engine) AfterStatement(ctx context.Context, _ string) (dbms.EngineTime, bool, error) {
	id, err := e.thread(ctx)
	if err != nil {
		return dbms.EngineTime{}, false, err
	}
	rows, err := e.Conn.QueryContext(ctx, "SELECT TIMER_WAIT, SQL_TEXT FROM performance_schema.events_statements_history WHERE THREAD_ID = ? ORDER BY EVENT_ID DESC", id)
	if err != nil {
		return dbms.EngineTime{}, false, e.classify(err)
	}
	defer rows.Close()
	var ps int64
	n := 0
	for rows.Next() {
		var wait sql.NullInt64
		var text sql.NullString
		if err := rows.Scan(&wait, &text); err != nil {
			return dbms.EngineTime{}, false, e.classify(err)
		}
		if text.String == engineTimeMark {
			if n == 0 {
				return dbms.EngineTime{}, false, nil
			}
			return dbms.EngineTime{TotalMS: float64(ps) / 1e9}, true, nil
		}
		ps += wait.Int64
		n++
	}
	return dbms.EngineTime{}, false, e.classify(rows.Err())
}
