package pgbench

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestInitMatchesPgbench runs pgbench -i and Init with the same options
// into two databases of one private PostgreSQL and requires the same
// tables: every row (a digest of each table's rows), the column types and
// NOT NULLs, the storage options (fillfactor, unlogged), the indexes and
// the constraints.
func TestInitMatchesPgbench(t *testing.T) {
	pgbench := lookPgbench(t)
	inst := servertest.Start(t, "postgres", server.Options{})
	ctx := context.Background()
	for i, args := range [][]string{
		{"-i", "-s", "1", "--foreign-keys"},
		{"-i", "-s", "2", "-F", "80", "--unlogged-tables", "-I", "dtGvp"},
		{"-i", "-s", "1", "-n", "-I", "dtg"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			peer, ours := dbURL(t, inst.URL, "peer", i), dbURL(t, inst.URL, "ours", i)
			createDB(t, inst.URL, peer)
			createDB(t, inst.URL, ours)
			if out, err := pgbenchCmd(pgbench, append(args, peer)...).CombinedOutput(); err != nil {
				t.Fatalf("pgbench %v: %v\n%s", args, err, out)
			}
			mine, _, _ := initOn(t, ours, args...)
			theirs, err := dbms.Open(ctx, peer)
			if err != nil {
				t.Fatal(err)
			}
			defer theirs.Close()
			for _, sql := range []string{
				"SELECT COUNT(*), md5(COALESCE(string_agg(t::text, '|' ORDER BY t::text), '')) FROM pgbench_branches t",
				"SELECT COUNT(*), md5(COALESCE(string_agg(t::text, '|' ORDER BY t::text), '')) FROM pgbench_tellers t",
				"SELECT COUNT(*), md5(COALESCE(string_agg(t::text, '|' ORDER BY t::text), '')) FROM pgbench_accounts t",
				"SELECT COUNT(*) FROM pgbench_history",
				"SELECT filler IS NULL, octet_length(filler), length(filler::text) FROM pgbench_branches LIMIT 1",
				"SELECT filler IS NULL, octet_length(filler) FROM pgbench_accounts LIMIT 1",
				`SELECT table_name, column_name, data_type, COALESCE(character_maximum_length, 0), is_nullable
				   FROM information_schema.columns WHERE table_name LIKE 'pgbench\_%' ORDER BY table_name, ordinal_position`,
				`SELECT relname, relkind, relpersistence, COALESCE(array_to_string(reloptions, ','), '')
				   FROM pg_class WHERE relname LIKE 'pgbench\_%' ORDER BY relname`,
				`SELECT indexname, indexdef FROM pg_indexes WHERE tablename LIKE 'pgbench\_%' ORDER BY indexname`,
				`SELECT conrelid::regclass::text, contype, pg_get_constraintdef(oid)
				   FROM pg_constraint WHERE conrelid::regclass::text LIKE 'pgbench\_%' ORDER BY 1, 3`,
			} {
				want, got := query(t, theirs, sql), query(t, mine, sql)
				if got != want {
					t.Errorf("%s\npgbench -i:\n%sInit:\n%s", sql, want, got)
				}
			}
		})
	}
}

// createDB creates the database of URL db on the server of URL admin.
func createDB(t *testing.T, admin, db string) {
	t.Helper()
	ctx := context.Background()
	e, err := dbms.Open(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	u, _ := url.Parse(db)
	if _, err := e.Exec(ctx, "CREATE DATABASE "+strings.TrimPrefix(u.Path, "/")); err != nil {
		t.Fatal(err)
	}
}

// dbURL is the instance's URL with another database name.
func dbURL(t *testing.T, raw, who string, i int) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + who + string(rune('0'+i))
	return u.String()
}
