package duckdb

import (
	"context"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
)

// TestEngineTime: the query's time comes from DuckDB's profiler: a query
// that works shows its time, with its planning; a
// pause in the client before a quick query shows in the client's time
// only.
func TestEngineTime(t *testing.T) {
	e, _ := openFile(t)
	ctx := context.Background()
	src, err := e.EngineTiming(ctx)
	if err != nil || src.Name != "duckdb profiling" || !src.Planning || src.Separate {
		t.Fatalf("source %+v, %v: want duckdb profiling with planning", src, err)
	}
	et, ok, client := dbmstest.EngineTimed(t, e, 0, "SELECT sum(range % 7) FROM range(20000000)")
	total, plan := et.TotalMS, et.PlanMS
	ok = ok && et.HasPlan
	// Not asserted: the engine's time within the client's. DuckDB ends a
	// query's profile when it cleans the query up, which may come a
	// little after the client's last call returned.
	if !ok || total <= 0 || plan <= 0 || plan > total {
		t.Errorf("a 20-million-row sum: engine %.3f ms (planning %.3f, ok %v), client %.3f ms: want the engine's time, planning within it", total, plan, ok, client)
	}
	et, ok, client = dbmstest.EngineTimed(t, e, 200*time.Millisecond, "SELECT 1")
	total = et.TotalMS
	if !ok || total >= 200 || client < 200 {
		t.Errorf("a client pause of 200 ms before SELECT 1: engine %.3f ms (ok %v), client %.3f ms: want the pause in the client's time only", total, ok, client)
	}
}
