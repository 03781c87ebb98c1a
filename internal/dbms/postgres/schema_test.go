package postgres

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
)

// loaded creates and fills a table of n rows from rowGen for one test.
func loaded(t *testing.T, e *Engine, name string, n int) dbms.Table {
	t.Helper()
	ctx := context.Background()
	tbl := loadTable
	tbl.Name = name
	if err := e.CreateTable(ctx, tbl); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.DropTable(ctx, name) })
	if _, err := e.Load(ctx, tbl, &rowGen{n: n}); err != nil {
		t.Fatal(err)
	}
	return tbl
}

func indexDef(t *testing.T, e *Engine, name string) string {
	t.Helper()
	return value(t, e, "SELECT coalesce((SELECT indexdef FROM pg_indexes WHERE indexname = '"+name+"'), 'none')")
}

func testIndexes(t *testing.T, inst *server.Instance) {
	e := open(t, inst.URL)
	ctx := context.Background()
	loaded(t, e, "indexed", 1000)
	if err := e.CreateIndex(ctx, "indexed", "indexed_u1", "unique1", dbms.BTree, true); err != nil {
		t.Fatal(err)
	}
	if d := indexDef(t, e, "indexed_u1"); d != "CREATE UNIQUE INDEX indexed_u1 ON public.indexed USING btree (unique1)" {
		t.Errorf("btree index = %q", d)
	}
	if _, err := e.Exec(ctx, "INSERT INTO indexed VALUES (5, 0, 'dup')"); dbms.Classify(err) != dbms.Other || err == nil {
		t.Errorf("duplicate key into a unique index: %v (class %v)", err, dbms.Classify(err))
	}
	if err := e.CreateIndex(ctx, "indexed", "indexed_u2", "unique2", dbms.Hash, false); err != nil {
		t.Fatalf("hash index: %v", err)
	}
	if d := indexDef(t, e, "indexed_u2"); d != "CREATE INDEX indexed_u2 ON public.indexed USING hash (unique2)" {
		t.Errorf("hash index = %q", d)
	}
	err := e.CreateIndex(ctx, "indexed", "indexed_h", "unique1", dbms.Hash, true)
	if !errors.Is(err, dbms.ErrNotSupported) || dbms.Classify(err) != dbms.Unsupported {
		t.Errorf("unique hash index: %v, want ErrNotSupported", err)
	}
	for _, name := range []string{"indexed_u1", "indexed_u2"} {
		if err := e.DropIndex(ctx, "indexed", name); err != nil {
			t.Fatal(err)
		}
		if d := indexDef(t, e, name); d != "none" {
			t.Errorf("index %s still there after DropIndex: %s", name, d)
		}
	}
}

func testCluster(t *testing.T, inst *server.Instance) {
	e := open(t, inst.URL)
	ctx := context.Background()
	const n = 5000
	tbl := loaded(t, e, "clustered", n) // unique1 is stored out of order: 0, 7, 14, ...
	if inOrder(t, e) {
		t.Fatal("test data is already in unique1 order: the check below proves nothing")
	}
	if err := e.Cluster(ctx, tbl, "clustered_u1", "unique1"); err != nil {
		t.Fatal(err)
	}
	if !inOrder(t, e) {
		t.Errorf("a sequential scan after Cluster does not return unique1 in order")
	}
	if v := value(t, e, "SELECT indisclustered::text FROM pg_index WHERE indexrelid = 'clustered_u1'::regclass"); v != "true" {
		t.Errorf("clustered_u1 is not the table's cluster index (%s)", v)
	}
	// ANALYZE ran: the planner knows the heap is ordered.
	if v := value(t, e, "SELECT correlation::numeric(3,2)::text FROM pg_stats WHERE tablename = 'clustered' AND attname = 'unique1'"); v != "1.00" {
		t.Errorf("correlation of unique1 = %s, want 1.00 after Cluster", v)
	}
}

// inOrder reads the heap in physical order and says whether unique1 ascends.
func inOrder(t *testing.T, e *Engine) bool {
	t.Helper()
	exec(t, e, "SET enable_indexscan = off")
	exec(t, e, "SET enable_bitmapscan = off")
	defer exec(t, e, "RESET ALL")
	rows, err := e.QueryRows(context.Background(), "SELECT unique1 FROM clustered")
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if r[0] != strconv.Itoa(i) {
			return false
		}
	}
	return len(rows) > 0
}

func testCreateTableAs(t *testing.T, inst *server.Instance) {
	e := open(t, inst.URL)
	ctx := context.Background()
	loaded(t, e, "source", 1000)
	t.Cleanup(func() { e.DropTable(ctx, "derived") })
	err := e.CreateTableAs(ctx, "derived", "SELECT unique1, stringu1 FROM source WHERE unique1 < 100", nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := value(t, e, "SELECT count(*) || ' ' || sum(unique1) FROM derived"); v != "100 4950" {
		t.Errorf("derived holds %s, want 100 rows summing to 4950", v)
	}
	if v := value(t, e, "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'derived'::regclass AND attname = 'stringu1'"); v != "character(52)" {
		t.Errorf("derived.stringu1 is %s, want the source's character(52)", v)
	}
	if err := e.Analyze(ctx, "derived"); err != nil {
		t.Fatal(err)
	}
	if v := value(t, e, "SELECT reltuples::bigint FROM pg_class WHERE oid = 'derived'::regclass"); v != "100" {
		t.Errorf("reltuples after Analyze = %s, want 100", v)
	}
}
