package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var _ dbms.EngineTimer = (*Engine)(nil)

// pgTiming is how the session reads the engine's time: from
// pg_stat_statements' running sums, or, where the extension is not
// loaded, from EXPLAIN ANALYZE of a second execution.
type pgTiming struct {
	explain bool
	// planning: pg_stat_statements.track_planning is on.
	planning bool
	// before are the sums BeforeStatement read.
	before pgSums
}

// pgSums are pg_stat_statements' sums over this database's statements,
// its own reads of them left out.
type pgSums struct {
	execMS, planMS float64
	calls          int64
}

// pgSumsQuery reads them. The view's own queries name it, and are left
// out; any other statement run since the last read, by any session of
// the database, is in the sums, which AfterStatement sees in calls.
const pgSumsQuery = `SELECT COALESCE(sum(total_exec_time), 0), COALESCE(sum(total_plan_time), 0), COALESCE(sum(calls), 0)::bigint
 FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
 AND query NOT LIKE '%pg_stat_statements%'`

// pgUtilityNote says why a stored result has no planning time.
const pgUtilityNote = "a CREATE TABLE AS plans its query inside its execution, so its planning counts as execution"

// EngineTiming uses pg_stat_statements (execution and planning time of
// each statement, summed by the server as it runs them) when the server
// loaded it (shared_preload_libraries; dbgauge server start postgres
// does) and the extension can be created here; planning time only with
// pg_stat_statements.track_planning on. Where the server tracks nothing
// (pg_stat_statements.track = none, as dbgauge's private servers start:
// a load's clients run uninstrumented) or not planning, the session
// turns tracking on for itself, which a superuser may (both settings
// are per session). Otherwise each timed statement is executed a second
// time under EXPLAIN (ANALYZE, TIMING OFF), whose planning and execution
// times stand for the timed execution's.
func (e *Engine) EngineTiming(ctx context.Context) (dbms.EngineSource, error) {
	e.timing = pgTiming{}
	_, err := e.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
	if err == nil {
		_, err = e.readSums(ctx)
	}
	if err != nil && dbms.Classify(err).SessionFault() {
		return dbms.EngineSource{}, err // the session's trouble, not the extension's absence
	}
	why := ""
	if err != nil {
		why = err.Error() + ": load it with shared_preload_libraries = 'pg_stat_statements' to time the executions themselves"
	} else if why, err = e.trackOn(ctx, "pg_stat_statements.track", "none", "top"); err != nil {
		return dbms.EngineSource{}, err
	} else if why != "" {
		// Loaded, recording nothing, and this session may not change
		// that: every statement would go without a time.
		why = "pg_stat_statements.track = none records no statement, and " + why + ": set it to top to time the executions themselves"
	}
	if why != "" {
		e.timing.explain = true
		return dbms.EngineSource{Name: "explain analyze (a separate execution)", Planning: true, Separate: true,
			Note: "pg_stat_statements is not usable here (" + why + ")"}, nil
	}
	noPlanning, err := e.trackOn(ctx, "pg_stat_statements.track_planning", "off", "on")
	if err != nil {
		return dbms.EngineSource{}, err
	}
	e.timing.planning = noPlanning == ""
	note := pgUtilityNote
	if utility, _ := dbms.FirstValue(ctx, e, "SHOW pg_stat_statements.track_utility"); utility == "off" {
		note = "pg_stat_statements.track_utility is off, so a CREATE TABLE AS gets no engine time: turn it on to have one"
	}
	return dbms.EngineSource{Name: "pg_stat_statements", Planning: e.timing.planning, Note: note}, nil
}

// trackOn sets pg_stat_statements' setting name to on for this session
// where it is off ("" when it is on now), or says why it stays off (a
// session that may not change it: not a superuser). Only the session's
// trouble is an error.
func (e *Engine) trackOn(ctx context.Context, name, off, on string) (string, error) {
	if v, _ := dbms.FirstValue(ctx, e, "SHOW "+name); v != off {
		return "", nil
	}
	if _, err := e.Exec(ctx, "SET "+name+" = "+on); err != nil {
		if dbms.Classify(err).SessionFault() {
			return "", err
		}
		return "this session may not set " + name + " (" + err.Error() + ")", nil
	}
	return "", nil
}

func (e *Engine) readSums(ctx context.Context) (pgSums, error) {
	var s pgSums
	if err := e.conn.QueryRow(ctx, pgSumsQuery).Scan(&s.execMS, &s.planMS, &s.calls); err != nil {
		return pgSums{}, e.classify(err)
	}
	return s, nil
}

// BeforeStatement reads the sums the statement will add to.
func (e *Engine) BeforeStatement(ctx context.Context) error {
	if e.timing.explain {
		return nil
	}
	s, err := e.readSums(ctx)
	e.timing.before = s
	return err
}

// AfterStatement is the sums' increase, which is the statement's when it
// was the one call added (a utility statement such as CREATE TABLE AS
// has no planning of its own: its query is planned inside its execution);
// or, without the extension, EXPLAIN ANALYZE's times of a second
// execution of stmt, for statements that read only (a second update
// would change the data).
func (e *Engine) AfterStatement(ctx context.Context, stmt string) (dbms.EngineTime, bool, error) {
	if e.timing.explain {
		return e.explainTime(ctx, stmt)
	}
	after, err := e.readSums(ctx)
	if err != nil {
		return dbms.EngineTime{}, false, err
	}
	b := e.timing.before
	if after.calls-b.calls != 1 || after.execMS < b.execMS || after.planMS < b.planMS {
		return dbms.EngineTime{}, false, nil
	}
	plan := after.planMS - b.planMS
	// No planning recorded: track_planning off, or a utility statement
	// (CREATE TABLE AS) that plans inside its execution.
	return dbms.EngineTime{TotalMS: after.execMS - b.execMS + plan, PlanMS: plan, HasPlan: e.timing.planning && plan > 0}, true, nil
}

// explainTime runs stmt under EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON):
// TIMING OFF leaves out the per-node clock reads that would slow the
// execution, and keeps the whole statement's times.
func (e *Engine) explainTime(ctx context.Context, stmt string) (dbms.EngineTime, bool, error) {
	if !readOnly(stmt) {
		return dbms.EngineTime{}, false, nil
	}
	doc, err := dbms.FirstValue(ctx, e, "EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) "+stmt)
	if err != nil {
		return dbms.EngineTime{}, false, err
	}
	var plans []struct {
		Planning  float64 `json:"Planning Time"`
		Execution float64 `json:"Execution Time"`
	}
	if err := json.Unmarshal([]byte(doc), &plans); err != nil {
		return dbms.EngineTime{}, false, fmt.Errorf("EXPLAIN JSON: %w", err)
	}
	if len(plans) != 1 {
		return dbms.EngineTime{}, false, fmt.Errorf("EXPLAIN JSON: %d plans, want one", len(plans))
	}
	p := plans[0]
	return dbms.EngineTime{TotalMS: p.Planning + p.Execution, PlanMS: p.Planning, HasPlan: true}, true, nil
}

// readOnly says whether stmt only reads: a SELECT (or a WITH query
// without a data-modifying part, which the caller's statements never
// have).
func readOnly(stmt string) bool {
	s := strings.ToUpper(strings.TrimSpace(stmt))
	return strings.HasPrefix(s, "SELECT") || strings.HasPrefix(s, "WITH") || strings.HasPrefix(s, "VALUES")
}
