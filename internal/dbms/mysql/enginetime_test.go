package mysql

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestEngineTime: the statement's time is read from performance_schema,
// the session turning its own instrumentation on (the private server
// instruments no session).
// A statement made slower inside the server (SLEEP) shows it in the
// engine time; a pause in the client before a quick statement shows in
// the client's time only. A server without performance_schema says how
// to turn it on.
func TestEngineTime(t *testing.T) {
	// One private server after the other: two installs at once on this
	// small machine were seen failing.
	t.Run("performance_schema", func(t *testing.T) {
		inst := servertest.Start(t, "mariadb", server.Options{})
		ctx := context.Background()
		e := open(t, ctx, inst.URL)
		src, err := e.EngineTiming(ctx)
		if err != nil || src.Name != "performance_schema" || src.Planning || src.Separate {
			t.Fatalf("source %+v, %v: want performance_schema, no planning of its own", src, err)
		}
		// The statement's event ends after its reply was sent, so the
		// engine may count a little past the client's receipt (seen:
		// 0.09 ms of 200): within the client's time means within 1 %.
		slow, ok, client := dbmstest.EngineTimed(t, e, 0, "SELECT SLEEP(0.2)")
		if !ok || slow.TotalMS < 200 || slow.TotalMS > client*1.01 {
			t.Errorf("SLEEP(0.2): engine %+v (ok %v), client %.3f ms: want 200 ms or more in the engine, within the client's time (1 %% for the reply sent before the event ends)", slow, ok, client)
		}
		quick, ok, client := dbmstest.EngineTimed(t, e, 200*time.Millisecond, "SELECT 1")
		if !ok || quick.TotalMS >= 200 || client < 200 {
			t.Errorf("a client pause of 200 ms before SELECT 1: engine %+v (ok %v), client %.1f ms: want the pause in the client's time only", quick, ok, client)
		}
		// The session's thread is asked again after a reconnect.
		if err := e.Reconnect(ctx); err != nil {
			t.Fatal(err)
		}
		if again, ok, _ := dbmstest.EngineTimed(t, e, 0, "SELECT SLEEP(0.1)"); !ok || again.TotalMS < 100 {
			t.Errorf("after a reconnect: engine %+v (ok %v): want the new session's statement", again, ok)
		}
		// A session performance_schema keeps no history of (the
		// private server instruments no session), and that may not
		// turn it on for itself, is said at the start, not as every
		// statement's missing time.
		for _, s := range []string{"CREATE USER plain@'%' IDENTIFIED BY 'plain'", "GRANT ALL ON dbgauge.* TO plain@'%'", "GRANT SELECT ON performance_schema.* TO plain@'%'"} {
			if _, err := e.Exec(ctx, s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
		u, err := url.Parse(inst.URL)
		if err != nil {
			t.Fatal(err)
		}
		u.User = url.UserPassword("plain", "plain")
		if _, err := open(t, ctx, u.String()).EngineTiming(ctx); dbms.Classify(err) != dbms.Unsupported || !strings.Contains(err.Error(), "setup_actors") {
			t.Errorf("a session without history that may not update performance_schema: %v: want unsupported, naming setup_actors", err)
		}
	})
	t.Run("off", func(t *testing.T) {
		inst := servertest.Start(t, "mariadb", server.Options{Settings: map[string]string{"performance_schema": "OFF"}})
		ctx := context.Background()
		_, err := open(t, ctx, inst.URL).EngineTiming(ctx)
		if dbms.Classify(err) != dbms.Unsupported || !strings.Contains(err.Error(), "performance_schema=ON") {
			t.Errorf("performance_schema off: %v: want unsupported, saying how to turn it on", err)
		}
	})
}
