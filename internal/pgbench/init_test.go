package pgbench

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// initOn parses a pgbench -i command line for db and runs Init on it.
func initOn(t *testing.T, db string, args ...string) (dbms.Engine, []string, string) {
	t.Helper()
	o, err := Parse(append(args, db), nil)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if o.Mode != Initialize {
		t.Fatalf("%v is not -i", args)
	}
	ctx := context.Background()
	e, err := dbms.Open(ctx, db)
	if err != nil {
		t.Fatalf("open %s: %v", db, err)
	}
	t.Cleanup(func() { e.Close() })
	var log bytes.Buffer
	notes, err := Init(ctx, e, o, &log)
	if err != nil {
		t.Fatalf("Init %v: %v\n%s", args, err, log.String())
	}
	return e, notes, log.String()
}

func query(t *testing.T, e dbms.Engine, sql string) string {
	t.Helper()
	rows, err := e.QueryRows(context.Background(), sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.Join(r, "|"))
		b.WriteByte('\n')
	}
	return b.String()
}

// checkContents checks the tables Init made at scale s against pgbench's
// definition of them: sizes, keys, balances 0, fillers NULL in branches
// and tellers and empty in accounts, an empty history, and primary keys
// that refuse a duplicate.
func checkContents(t *testing.T, e dbms.Engine, s int64) {
	t.Helper()
	tri := func(n int64) int64 { return n * (n + 1) / 2 }
	for sql, want := range map[string]string{
		"SELECT COUNT(*), SUM(bid), SUM(bbalance), COUNT(filler) FROM pgbench_branches":                 fmt.Sprintf("%d|%d|0|0\n", s, tri(s)),
		"SELECT COUNT(*), SUM(tid), SUM(bid), SUM(tbalance), COUNT(filler) FROM pgbench_tellers":        fmt.Sprintf("%d|%d|%d|0|0\n", 10*s, tri(10*s), 10*tri(s)),
		"SELECT COUNT(*), SUM(aid), SUM(bid), SUM(abalance), COUNT(filler) FROM pgbench_accounts":       fmt.Sprintf("%d|%d|%d|0|%d\n", 100000*s, tri(100000*s), 100000*tri(s), 100000*s),
		"SELECT COUNT(*) FROM pgbench_accounts WHERE TRIM(filler) = ''":                                 fmt.Sprintf("%d\n", 100000*s),
		"SELECT MIN(bid), MAX(bid) FROM pgbench_accounts WHERE aid = 100000 OR aid = 100001 OR aid = 1": fmt.Sprintf("1|%d\n", min(s, 2)),
		"SELECT COUNT(*) FROM pgbench_history":                                                          "0\n",
		"SELECT COUNT(*) FROM pgbench_tellers WHERE bid = 1":                                            "10\n",
	} {
		if got := query(t, e, sql); got != want {
			t.Errorf("%s: got %q, want %q", sql, got, want)
		}
	}
	if _, err := e.Exec(context.Background(), "INSERT INTO pgbench_branches (bid, bbalance) VALUES (1, 0)"); err == nil {
		t.Errorf("a second branch 1 was taken: no primary key")
	}
}

// TestInitEmbedded runs pgbench -i on SQLite and DuckDB.
func TestInitEmbedded(t *testing.T) {
	for _, scheme := range []string{"sqlite", "duckdb"} {
		t.Run(scheme, func(t *testing.T) {
			db := scheme + ":" + filepath.Join(t.TempDir(), "pgbench.db")
			e, notes, log := initOn(t, db, "-i", "-s", "2", "--foreign-keys")
			checkContents(t, e, 2)
			if len(notes) != 1 || !strings.Contains(notes[0], "foreign key") {
				t.Errorf("notes %q: want the one that says %s adds no foreign keys", notes, scheme)
			}
			for _, step := range []string{"dropping old tables...", "creating tables...", "generating data (client-side)...", "100000 of 200000 tuples (50%) done", "200000 of 200000 tuples (100%) done", "vacuuming...", "creating primary keys...", "creating foreign keys...", "done in "} {
				if !strings.Contains(log, step) {
					t.Errorf("log lacks %q:\n%s", step, log)
				}
			}
			// Again over the existing tables: d drops them first.
			e2, _, _ := initOn(t, db, "-i", "-s", "1", "-q")
			checkContents(t, e2, 1)
		})
	}
}

// TestInitRefusesWhatTheEngineLacks: -F and --unlogged-tables on an
// engine without them are refused before any table is touched.
func TestInitRefusesWhatTheEngineLacks(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "x.db")
	ctx := context.Background()
	e, err := dbms.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Exec(ctx, "CREATE TABLE pgbench_branches (keep INTEGER)"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-i", "-F", "90"}, {"-i", "--unlogged-tables"}} {
		o, err := Parse(append(args, db), nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Init(ctx, e, o, &bytes.Buffer{})
		if err == nil || dbms.Classify(err) != dbms.BadInput || !strings.Contains(err.Error(), args[1]) {
			t.Errorf("%v: %v, want bad input naming %s", args, err, args[1])
		}
	}
	if got := query(t, e, "SELECT COUNT(*) FROM pgbench_branches"); got != "0\n" {
		t.Errorf("the refused Init touched the tables: %q", got)
	}
	if _, err := e.Exec(ctx, "SELECT keep FROM pgbench_branches"); err != nil {
		t.Errorf("the refused Init dropped the table: %v", err)
	}
}

// TestInitServers runs pgbench -i on private MariaDB and Firebird
// servers, one at a time.
func TestInitServers(t *testing.T) {
	for _, engine := range []string{"mariadb", "firebird"} {
		t.Run(engine, func(t *testing.T) {
			inst := servertest.Start(t, engine, server.Options{})
			e, notes, _ := initOn(t, inst.URL, "-i", "-s", "1", "--foreign-keys")
			checkContents(t, e, 1)
			if len(notes) != 0 {
				t.Errorf("notes %q: %s adds foreign keys", notes, engine)
			}
		})
	}
}

// TestBeforeRun: unless -n, the history is emptied before a run; an
// error (no such table) is written and the run goes on.
func TestBeforeRun(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "pgbench.db")
	e, _, _ := initOn(t, db, "-i", "-s", "1", "-I", "dt")
	ctx := context.Background()
	fill := func() {
		if _, err := e.Exec(ctx, "INSERT INTO pgbench_history (tid, bid, aid, delta) VALUES (1, 1, 1, 5)"); err != nil {
			t.Fatal(err)
		}
	}
	fill()
	var log bytes.Buffer
	BeforeRun(ctx, e, &Options{NoVacuum: true}, &log)
	if got := query(t, e, "SELECT COUNT(*) FROM pgbench_history"); got != "1\n" || log.Len() != 0 {
		t.Errorf("-n: history %q, log %q; want it untouched and nothing said", got, log.String())
	}
	BeforeRun(ctx, e, &Options{VacuumAll: true}, &log)
	if got := query(t, e, "SELECT COUNT(*) FROM pgbench_history"); got != "0\n" {
		t.Errorf("history %q after the vacuum, want it empty", got)
	}
	if want := "starting vacuum...end.\nstarting vacuum pgbench_accounts...end.\n"; log.String() != want {
		t.Errorf("log %q, want %q", log.String(), want)
	}
	if _, err := e.Exec(ctx, "DROP TABLE pgbench_history"); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	BeforeRun(ctx, e, &Options{}, &log)
	if !strings.Contains(log.String(), "ignoring this error and continuing anyway") || !strings.HasSuffix(log.String(), "end.\n") {
		t.Errorf("a missing history: log %q, want the error said and the vacuum ended", log.String())
	}
}
