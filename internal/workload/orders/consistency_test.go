package orders

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	_ "github.com/dbgauge/dbgauge/internal/dbms/all"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// load builds s on e as a sweep populates a scale: the tables through the
// engine's bulk path, then the primary keys, then the indexes.
func load(t *testing.T, e dbms.Engine, s workload.Schema) {
	t.Helper()
	ctx := context.Background()
	for i := len(s.Tables) - 1; i >= 0; i-- {
		if err := e.DropTable(ctx, s.Tables[i].Name); err != nil {
			t.Fatal(err)
		}
	}
	for _, tb := range s.Tables {
		if err := e.CreateTable(ctx, tb.Table); err != nil {
			t.Fatalf("create %s: %v", tb.Name, err)
		}
		n, err := e.Load(ctx, tb.Table, tb.Fill())
		if err != nil {
			t.Fatalf("load %s: %v", tb.Name, err)
		}
		if n != tb.Rows {
			t.Fatalf("load %s: %d rows of %d", tb.Name, n, tb.Rows)
		}
	}
	for _, pk := range s.PrimaryKeys {
		if err := e.(dbms.Keys).AddPrimaryKey(ctx, pk.Table, pk.Columns...); err != nil {
			t.Fatal(err)
		}
	}
	for _, ix := range s.Indexes {
		if err := e.CreateIndex(ctx, ix.Table, ix.Name, strings.Join(ix.Columns, ", "), dbms.BTree, ix.Unique); err != nil {
			t.Fatal(err)
		}
	}
}

// failed are the numbers of the conditions that do not hold.
func failed(rs []Result) []int {
	var out []int
	for _, r := range rs {
		if !r.Passed() {
			out = append(out, r.Condition.Number)
		}
	}
	return out
}

// checkLoadAndBreak loads one warehouse on e, checks that every condition
// holds, then breaks the database by hand as the issue says (one
// district's next order id one too high, one order line deleted) and
// checks that the core check names conditions 2 and 4, with the district
// and by how much, and that all twelve name 2, 4 and 6 (the order that
// lost its line) and nothing else.
func checkLoadAndBreak(t *testing.T, e dbms.Engine) {
	ctx := context.Background()
	load(t, e, Schema(1))
	start := time.Now()
	rs, err := CheckConditions(ctx, e, AfterLoadConditions)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: the twelve conditions at one warehouse took %v", e.Name(), time.Since(start).Round(time.Millisecond))
	if len(rs) != 12 {
		t.Fatalf("%d results, want 12", len(rs))
	}
	for _, r := range rs {
		if !r.Passed() {
			t.Errorf("after the load: %s", r)
		}
	}
	ck := NewCheck()
	if err := ck.Read(ctx, e); err != nil {
		t.Fatal(err)
	}
	if bad := ck.Verify(workload.Commits{}); bad != nil || len(ck.Results()) != 4 {
		t.Fatalf("after the load the core check gave %q of %d results", bad, len(ck.Results()))
	}
	for _, st := range []string{
		"UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = 1 AND d_id = 3",
		"DELETE FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 5 AND ol_o_id = 7 AND ol_number = 2",
	} {
		if _, err := e.Exec(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	if err := ck.Read(ctx, e); err != nil {
		t.Fatal(err)
	}
	bad := ck.Verify(workload.Commits{})
	if len(bad) != 2 ||
		!strings.Contains(bad[0], "condition 3.3.2.2 (D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)) fails in 1 district: warehouse 1, district 3: d_next_o_id - 1 = 3001, max(o_id) = 3000, max(no_o_id) = 3000") ||
		!strings.Contains(bad[1], "condition 3.3.2.4 (sum(O_OL_CNT) = count(ORDER_LINE)) fails in 1 district: warehouse 1, district 5: sum(o_ol_cnt) = ") {
		t.Fatalf("the broken copy gave %q", bad)
	}
	if got := failed(ck.Results()); !reflect.DeepEqual(got, []int{2, 4}) {
		t.Errorf("core conditions failing: %v, want [2 4]", got)
	}
	rs, err = CheckConditions(ctx, e, AfterLoadConditions)
	if err != nil {
		t.Fatal(err)
	}
	if got := failed(rs); !reflect.DeepEqual(got, []int{2, 4, 6}) {
		t.Errorf("conditions failing: %v, want [2 4 6]", got)
	}
	if s := rs[5].String(); !strings.Contains(s, "fails in 1 order: order 7 of warehouse 1, district 5: o_ol_cnt = ") {
		t.Errorf("condition 6: %s", s)
	}
}

// open opens a database of engine for one test: a file for the embedded
// engines, a private server for the others.
func open(t *testing.T, engine string) dbms.Engine {
	t.Helper()
	url := ""
	switch engine {
	case "sqlite":
		url = "sqlite:" + filepath.Join(t.TempDir(), "orders.db")
	case "duckdb":
		url = "duckdb:" + filepath.Join(t.TempDir(), "orders.duckdb")
	default:
		url = servertest.Start(t, engine, server.Options{}).URL
	}
	e, err := dbms.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

var engines = []string{"sqlite", "duckdb", "postgres", "mariadb", "firebird"}

// Every condition's statement runs on every engine and finds what was
// broken, on a database of a few rows; then on one warehouse as loaded
// (on PostgreSQL: the hand-broken copy, named by conditions 2
// and 4).
func TestConditionsOnEveryEngine(t *testing.T) {
	for _, engine := range engines {
		t.Run(engine, func(t *testing.T) {
			e := open(t, engine)
			checkEachBreak(t, e)
			checkLoadAndBreak(t, e)
		})
	}
}

// Conditions are numbered 1 to 12; another number is an error that says
// so, before any statement runs.
func TestConditionNumbers(t *testing.T) {
	for i, c := range Conditions() {
		if c.Number != i+1 || c.Name() != "3.3.2."+strconv.Itoa(i+1) {
			t.Errorf("condition %d is numbered %d (%s)", i+1, c.Number, c.Name())
		}
	}
	if _, err := CheckConditions(context.Background(), nil, []int{1, 13}); err == nil || !strings.Contains(err.Error(), "no consistency condition 13: they are numbered 1 to 12") {
		t.Errorf("condition 13: %v", err)
	}
	if len(AfterRunConditions) != 11 || slices.Contains(AfterRunConditions, 11) || len(AfterLoadConditions) != 12 {
		t.Errorf("sets: after a run %v, after the load %v", AfterRunConditions, AfterLoadConditions)
	}
}
