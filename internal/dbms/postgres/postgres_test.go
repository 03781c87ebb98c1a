package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestPostgres runs every adapter test against one private server: starting
// a cluster costs seconds, the tests themselves milliseconds.
func TestPostgres(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{Settings: map[string]string{
		"shared_buffers": "32MB", // checked by Info: proves BufferPoolBytes is read, not assumed
	}})
	for _, tc := range []struct {
		name string
		run  func(*testing.T, *server.Instance)
	}{
		{"Info", testInfo},
		{"Queries", testQueries},
		{"Load", testLoad},
		{"LoadStreams", testLoadStreams},
		{"LoadTypes", func(t *testing.T, inst *server.Instance) {
			dbmstest.CheckLoadTypes(t, context.Background(), open(t, inst.URL), "typed")
		}},
		{"Indexes", testIndexes},
		{"Cluster", testCluster},
		{"CreateTableAs", testCreateTableAs},
		{"FlushCache", testFlushCache},
		{"QueryProcess", func(t *testing.T, inst *server.Instance) {
			e := open(t, inst.URL)
			p := dbmstest.CheckProcess(t, context.Background(), e, "postgres")
			if p.PID != int(e.Conn().PgConn().PID()) {
				t.Errorf("query process %d, the protocol says %d", p.PID, e.Conn().PgConn().PID())
			}
		}},
		{"Explain", func(t *testing.T, inst *server.Instance) {
			dbmstest.CheckExplain(t, context.Background(), open(t, inst.URL), "ex_acct", true)
		}},
		{"Reconnect", func(t *testing.T, inst *server.Instance) {
			dbmstest.CheckReconnect(t, context.Background(), open(t, inst.URL), "SELECT pg_backend_pid()")
		}},
		{"TextQuerier", func(t *testing.T, inst *server.Instance) {
			dbmstest.CheckTextQuerier(t, context.Background(), open(t, inst.URL), "tq_acct")
		}},
		{"OpenErrors", testOpenErrors},
		{"WrongPassword", testWrongPassword},
		{"RuntimeErrors", testRuntimeErrors},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, inst) })
	}
}

// open opens a session through the registry, as the CLI does.
func open(t *testing.T, url string) *Engine {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	e, err := dbms.Open(ctx, url)
	if err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	t.Cleanup(func() { e.Close() })
	return e.(*Engine)
}

func exec(t *testing.T, e dbms.Engine, sql string) int64 {
	t.Helper()
	n, err := e.Exec(context.Background(), sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

func value(t *testing.T, e dbms.Engine, sql string) string {
	t.Helper()
	rows, err := e.QueryRows(context.Background(), sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	if len(rows) != 1 || len(rows[0]) != 1 {
		t.Fatalf("%s: got %q, want one value", sql, rows)
	}
	return rows[0][0]
}

func testInfo(t *testing.T, inst *server.Instance) {
	e := open(t, inst.URL)
	if e.Name() != "postgres" {
		t.Errorf("Name = %q", e.Name())
	}
	info, err := e.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Version == "" || info.Engine != "postgres" || info.Driver != driverModule || info.DriverVersion == "" {
		t.Errorf("Info = %+v: want engine, version and driver", info)
	}
	if info.BufferPoolBytes != 32<<20 {
		t.Errorf("BufferPoolBytes = %d, want 32 MiB as configured", info.BufferPoolBytes)
	}
	for _, s := range infoSettings {
		if info.Settings[s] == "" {
			t.Errorf("setting %s missing from Info", s)
		}
	}
	if info.Settings["shared_buffers"] != "32MB" || info.Settings["block_size"] != "8192" {
		t.Errorf("settings = %v", info.Settings)
	}
}

func testQueries(t *testing.T, inst *server.Instance) {
	// The postgresql scheme is PostgreSQL's other name.
	e := open(t, "postgresql"+inst.URL[len("postgres"):])
	ctx := context.Background()
	exec(t, e, "CREATE TABLE q (a integer, b char(5))")
	if n := exec(t, e, "INSERT INTO q VALUES (1, 'x'), (2, NULL), (3, 'zz')"); n != 3 {
		t.Errorf("INSERT affected %d rows, want 3", n)
	}
	if n := exec(t, e, "UPDATE q SET a = a + 10 WHERE a > 1"); n != 2 {
		t.Errorf("UPDATE affected %d rows, want 2", n)
	}
	n, err := e.QueryCount(ctx, "SELECT * FROM q")
	if err != nil || n != 3 {
		t.Errorf("QueryCount = %d, %v; want 3", n, err)
	}
	rows, err := e.QueryRows(ctx, "SELECT a, b FROM q ORDER BY a")
	want := [][]string{{"1", "x"}, {"12", ""}, {"13", "zz"}}
	if err != nil || len(rows) != 3 || rows[0][1] != want[0][1] || rows[1][0] != want[1][0] || rows[1][1] != "" || rows[2][1] != "zz" {
		t.Errorf("QueryRows = %q, %v; want %q (NULL as empty, padding trimmed)", rows, err, want)
	}
	pid, err := e.BackendPID(ctx)
	if err != nil || pid != int(e.Conn().PgConn().PID()) {
		t.Errorf("BackendPID = %d, %v; the protocol says %d", pid, err, e.Conn().PgConn().PID())
	}
	if err := e.DropTable(ctx, "q"); err != nil {
		t.Fatal(err)
	}
	if got := value(t, e, "SELECT coalesce(to_regclass('q')::text, 'gone')"); got != "gone" {
		t.Errorf("table q still exists after DropTable")
	}
	if err := e.DropTable(ctx, "q"); err != nil {
		t.Errorf("dropping a missing table: %v", err)
	}
}

func testFlushCache(t *testing.T, inst *server.Instance) {
	e := open(t, inst.URL)
	exec(t, e, "SET work_mem = '3MB'")
	done, notDone, err := e.FlushCache(context.Background())
	if err != nil || len(done) == 0 || len(notDone) == 0 {
		t.Fatalf("FlushCache = %q, %q, %v", done, notDone, err)
	}
	// Session settings an experiment made survive a flush.
	if got := value(t, e, "SHOW work_mem"); got != "3MB" {
		t.Errorf("work_mem after FlushCache = %q, want 3MB", got)
	}
}
