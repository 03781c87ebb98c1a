package cli

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestLoadRunsUninstrumented: a private server runs a load's sessions as
// the engine is, without statement instrumentation (PostgreSQL:
// pg_stat_statements loaded with track = none; MariaDB: performance_schema
// instruments no session), which the engine shows afterwards (none of
// the load's statements recorded) and the run's manifest records, read
// from the engine; a Wisconsin run on the same server still reads the
// engine's own time, its timed session having turned the instrumentation
// on for itself, and its manifest says both.
func TestLoadRunsUninstrumented(t *testing.T) {
	for _, tc := range []struct {
		engine, source string
		// off and on: settings of a new session and of the engine-time
		// session, as the manifest records them.
		off, on map[string]string
		// recorded counts the statements the engine recorded.
		recorded string
	}{
		{engine: "postgres", source: "pg_stat_statements",
			off:      map[string]string{"shared_preload_libraries": "pg_stat_statements", "pg_stat_statements.track": "none", "pg_stat_statements.track_planning": "off"},
			on:       map[string]string{"pg_stat_statements.track": "top", "pg_stat_statements.track_planning": "on"},
			recorded: "SELECT count(*) FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'"},
		{engine: "mariadb", source: "performance_schema",
			off: map[string]string{"performance_schema": "ON", "performance_schema this session instrumented": "NO", "performance_schema this session history": "NO"},
			on:  map[string]string{"performance_schema this session instrumented": "YES", "performance_schema this session history": "YES"},
			// A prepared statement's executions have no digest: they
			// are counted as statement/com/Execute.
			recorded: "SELECT (SELECT COUNT_STAR FROM performance_schema.events_statements_summary_global_by_event_name WHERE EVENT_NAME = 'statement/com/Execute')" +
				" + (SELECT COALESCE(SUM(COUNT_STAR), 0) FROM performance_schema.events_statements_summary_by_digest WHERE SCHEMA_NAME = 'dbgauge')"},
	} {
		t.Run(tc.engine, func(t *testing.T) {
			t.Parallel()
			inst := servertest.Start(t, tc.engine, server.Options{})
			dir := t.TempDir()
			load := filepath.Join(dir, "load")
			runFor[results.DSBenchResults](t, load, "dsbench", "--db", inst.URL, "--mode", "select", "--prepare",
				"--scales", "1", "--cycles", "1", "--duration", "1s", "--threads", "2")
			man := readJSON[results.Manifest](t, filepath.Join(load, results.ManifestFile))
			if len(man.Instrumentation) != 1 || man.Instrumentation[0].Session != results.NewSession || !holds(man.Instrumentation[0].Settings, tc.off) {
				t.Errorf("load's manifest instrumentation %+v: want one, %q, with %v", man.Instrumentation, results.NewSession, tc.off)
			}
			ctx := context.Background()
			e, err := dbms.Open(ctx, inst.URL)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if tc.engine == "postgres" {
				// The view shows what the server recorded before it
				// was created.
				if _, err := e.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); err != nil {
					t.Fatal(err)
				}
			}
			if n, err := dbms.FirstValue(ctx, e, tc.recorded); err != nil || n != "0" {
				t.Errorf("statements the engine recorded of the load: %s (%v): want none", n, err)
			}

			timed := filepath.Join(dir, "wisconsin")
			res := runFor[results.WisconsinResults](t, timed, "wisconsin", "--db", inst.URL, "--size", "1000", "--reps", "3", "--queries", "1", "--org", "heap", "--dest", "client")
			if res.EngineTime == nil || res.EngineTime.Source != tc.source || !holds(res.EngineTime.Instrumentation, tc.on) {
				t.Fatalf("engine_time %+v: want source %q, instrumentation with %v", res.EngineTime, tc.source, tc.on)
			}
			for _, q := range res.Queries {
				if q.Engine == nil || len(q.Engine.TotalSamplesMS) != q.Reps {
					t.Errorf("Q%d %s: engine times %+v (%q): want one per repetition", q.Query, q.Destination, q.Engine, q.EngineNone)
				}
			}
			man = readJSON[results.Manifest](t, filepath.Join(timed, results.ManifestFile))
			if len(man.Instrumentation) != 2 || !holds(man.Instrumentation[0].Settings, tc.off) || !holds(man.Instrumentation[1].Settings, tc.on) {
				t.Errorf("timed run's manifest instrumentation %+v: want a new session's with %v, then the engine-time session's with %v", man.Instrumentation, tc.off, tc.on)
			}
		})
	}
}

// holds says whether got has every setting of want.
func holds(got, want map[string]string) bool {
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}
