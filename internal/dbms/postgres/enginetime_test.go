package postgres

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestEngineTime: the engine's own time is read from the engine. A
// statement made slower inside the server (pg_sleep) shows it in the
// engine time; a pause in the client before a quick statement shows in
// the client's time only. Both ways: pg_stat_statements, which the
// private server loads with tracking off and a superuser's session turns
// on for itself, or a server that tracks every session; and EXPLAIN
// ANALYZE of a second execution on a server without it, or whose
// pg_stat_statements records nothing and a session that may not change
// that. The source's note says why, or what a setting leaves out.
func TestEngineTime(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings map[string]string
		// plain: the session is a role that is not a superuser.
		plain    bool
		source   string
		separate bool
		note     string
	}{
		{"pg_stat_statements", nil, false, "pg_stat_statements", false, "plans its query inside its execution"},
		{"server-tracks", map[string]string{"pg_stat_statements.track": "top", "pg_stat_statements.track_planning": "on"}, false, "pg_stat_statements", false, "plans its query inside its execution"},
		{"no-utility", map[string]string{"pg_stat_statements.track_utility": "off"}, false, "pg_stat_statements", false, "track_utility is off"},
		{"explain", map[string]string{"shared_preload_libraries": ""}, false, "explain analyze (a separate execution)", true, "shared_preload_libraries"},
		{"track-none", nil, true, "explain analyze (a separate execution)", true, "track = none records no statement, and this session may not set pg_stat_statements.track"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			inst := servertest.Start(t, "postgres", server.Options{Settings: tc.settings})
			e := open(t, inst.URL)
			ctx := context.Background()
			if tc.plain {
				exec(t, e, "CREATE EXTENSION pg_stat_statements")
				e = open(t, plainRole(t, e, inst.URL))
			}
			src, err := e.EngineTiming(ctx)
			if err != nil || src.Name != tc.source || !src.Planning || src.Separate != tc.separate || !strings.Contains(src.Note, tc.note) {
				t.Fatalf("source %+v, %v: want %q with planning, separate %v, a note with %q", src, err, tc.source, tc.separate, tc.note)
			}
			slow, ok, client := dbmstest.EngineTimed(t, e, 0, "SELECT pg_sleep(0.2)")
			if !ok || slow.TotalMS < 200 || !slow.HasPlan || slow.PlanMS < 0 || slow.PlanMS > slow.TotalMS {
				t.Errorf("pg_sleep(0.2): engine %+v (ok %v), client %.1f ms: want 200 ms or more in the engine, planning within it", slow, ok, client)
			}
			if !tc.separate && slow.TotalMS > client {
				t.Errorf("pg_sleep(0.2): engine %.1f ms, more than the client's %.1f ms around it", slow.TotalMS, client)
			}
			quick, ok, client := dbmstest.EngineTimed(t, e, 200*time.Millisecond, "SELECT 1")
			if !ok || quick.TotalMS >= 200 || client < 200 {
				t.Errorf("a client pause of 200 ms before SELECT 1: engine %+v (ok %v), client %.1f ms: want the pause in the client's time only", quick, ok, client)
			}
			exec(t, e, "CREATE TABLE et (a int)")
			if _, ok, _ := dbmstest.EngineTimed(t, e, 0, "UPDATE et SET a = 1"); ok == tc.separate {
				t.Errorf("an update: engine time known %v: want it from pg_stat_statements, not from a second execution", ok)
			}
			utility := !tc.separate && tc.name != "no-utility"
			if _, ok, _ := dbmstest.EngineTimed(t, e, 0, "CREATE TABLE et2 AS SELECT 1 AS a"); ok != utility {
				t.Errorf("a CREATE TABLE AS: engine time known %v: want %v (pg_stat_statements tracking utility statements)", ok, utility)
			}
		})
	}
}

// plainRole creates a role that is not a superuser, free to create
// tables, and returns inst's URL for it.
func plainRole(t *testing.T, super *Engine, instURL string) string {
	t.Helper()
	exec(t, super, "CREATE ROLE plain LOGIN PASSWORD 'plain'")
	exec(t, super, "GRANT ALL ON SCHEMA public TO plain")
	u, err := url.Parse(instURL)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword("plain", "plain")
	return u.String()
}
