package duckdb

import (
	"context"
	"fmt"
	"strconv"

	duckdbdrv "github.com/duckdb/duckdb-go/v2"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var _ dbms.EngineTimer = (*Engine)(nil)

// profilingSettings are the metrics DuckDB keeps per query: the whole
// query's time and its planning phases only, so no operator's timer
// slows the execution. The planning phases are measured in the detailed
// mode only.
var profilingSettings = []string{
	"PRAGMA enable_profiling = 'no_output'",
	"PRAGMA profiling_mode = 'detailed'",
	`SET custom_profiling_settings = '{"LATENCY": "true", "PLANNER": "true", "ALL_OPTIMIZERS": "true", "PHYSICAL_PLANNER": "true"}'`,
}

// planningMetrics add up to the planning: binding and the logical plan,
// the optimizers, the physical plan.
var planningMetrics = []string{"PLANNER", "ALL_OPTIMIZERS", "PHYSICAL_PLANNER"}

// EngineTiming turns DuckDB's profiler on for the session, without
// output: after each statement its LATENCY (from the start of the query,
// its parsing and planning included, to its end) and planning phases are
// read from the connection (duckdb_get_profiling_info).
func (e *Engine) EngineTiming(ctx context.Context) (dbms.EngineSource, error) {
	for _, s := range profilingSettings {
		if _, err := e.Exec(ctx, s); err != nil {
			return dbms.EngineSource{}, fmt.Errorf("turn the profiler on (%s): %w", s, err)
		}
	}
	return dbms.EngineSource{Name: "duckdb profiling", Planning: true,
		Note: "DuckDB's LATENCY runs from the query's start, its parsing included, to its clean-up; planning is its binding and logical plan, optimizers and physical plan"}, nil
}

// BeforeStatement runs a query of its own just before the timed one. The
// profile read afterwards is the last query's, but a statement run right
// after a DROP TABLE was seen with the DROP's time in its LATENCY (a
// CREATE TABLE AS after the drop of its old result: its engine time came
// out 0.15 ms longer than the client's whole call); after a query of its
// own, never.
func (e *Engine) BeforeStatement(ctx context.Context) error {
	_, err := e.Exec(ctx, "SELECT 1")
	return err
}

// AfterStatement reads the last query's profile.
func (e *Engine) AfterStatement(context.Context, string) (dbms.EngineTime, bool, error) {
	info, err := duckdbdrv.GetProfilingInfo(e.Conn)
	if err != nil {
		return dbms.EngineTime{}, false, fmt.Errorf("read the profile: %w", err)
	}
	sec := func(name string) (float64, bool) {
		v, err := strconv.ParseFloat(info.Metrics[name], 64)
		return v, err == nil
	}
	total, ok := sec("LATENCY")
	if !ok {
		return dbms.EngineTime{}, false, nil
	}
	t := dbms.EngineTime{TotalMS: total * 1e3, HasPlan: true}
	for _, m := range planningMetrics {
		v, ok := sec(m)
		if !ok {
			t.HasPlan = false
		}
		t.PlanMS += v * 1e3
	}
	if !t.HasPlan {
		t.PlanMS = 0
	}
	return t, true, nil
}
