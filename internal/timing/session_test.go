package timing

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	_ "github.com/dbgauge/dbgauge/internal/dbms/all"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// The query process must be the process that does the query's work: on
// each engine a CPU-heavy join is timed and the ticks charged to the query
// class must be the bulk of the work, more than dbgauge's own (a server)
// or all of it (an embedded engine, which runs in dbgauge's process).
func TestQueryProcessOnFiveEngines(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the protocol reads other processes' /proc and taskstats as root")
	}
	engines := []struct{ name, url string }{
		{"sqlite", "sqlite:" + filepath.Join(t.TempDir(), "q.db")},
		{"duckdb", "duckdb:" + filepath.Join(t.TempDir(), "q.duckdb") + "?threads=1"},
		{"postgres", ""}, {"mariadb", ""}, {"firebird", ""},
	}
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			url := eng.url
			if url == "" {
				// The join sends nothing until it ends, and on a busy
				// machine Firebird's takes longer than the default I/O
				// time-out (30 s), which is for a server gone silent:
				// the test's own minutes bound it instead.
				url = servertest.Start(t, eng.name, server.Options{}).URL + "?io_timeout=3m"
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			e, err := dbms.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			heavyTable(t, ctx, e)
			s, err := Attach(ctx, e, url)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			qp := s.QueryProcess()
			if (eng.url != "") != qp.Embedded {
				t.Fatalf("query process %+v: embedded should be %v", qp, eng.url != "")
			}
			qe, err := s.Execute(ctx, "SELECT COUNT(*) FROM qp_heavy a, qp_heavy b WHERE a.id + b.bal <> -1")
			if err != nil || qe.Err != "" {
				t.Fatalf("execute: %v %s", err, qe.Err)
			}
			q, own := qe.Classes[Query], qe.Classes[Own]
			work := q.UserTicks + q.SysTicks
			t.Logf("%s: query process %d (tid %d, %s): %d ticks of %.0f ms; own %d ticks; utility %d", eng.name, qp.PID, qp.TID, qp.How,
				work, float64(qe.Measured.Microseconds())/1000, own.UserTicks+own.SysTicks, qe.Classes[Utility].UserTicks+qe.Classes[Utility].SysTicks)
			if !qe.QueryProcessSeen || work == 0 {
				t.Fatalf("the query process did none of the work: %+v", qe.Classes)
			}
			if !qp.Embedded && work <= own.UserTicks+own.SysTicks {
				t.Errorf("dbgauge (%d ticks) worked as much as the query process (%d)", own.UserTicks+own.SysTicks, work)
			}
			// The CPU time charged to the query process cannot exceed
			// the wall clock by more than a tick per core.
			if limit := uint64(qe.Measured.Milliseconds()/TickMS+2) * 2; work > limit {
				t.Errorf("query process %d ticks in %v", work, qe.Measured)
			}
		})
	}
}

// heavyTable makes qp_heavy with 3,000 rows: its self-join has 9 million
// pairs, a few hundred milliseconds of CPU on every engine.
func heavyTable(t *testing.T, ctx context.Context, e dbms.Engine) {
	t.Helper()
	if err := e.DropTable(ctx, "qp_heavy"); err != nil {
		t.Fatal(err)
	}
	if err := e.CreateTable(ctx, dbmstest.AccountTable("qp_heavy")); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Exec(ctx, "INSERT INTO qp_heavy (id, bal) VALUES (1, 1)"); err != nil {
		t.Fatal(err)
	}
	for n := 1; n < 3000; n *= 2 {
		if _, err := e.Exec(ctx, "INSERT INTO qp_heavy (id, bal) SELECT id + "+strconv.Itoa(n)+", bal FROM qp_heavy"); err != nil {
			t.Fatal(err)
		}
	}
}
