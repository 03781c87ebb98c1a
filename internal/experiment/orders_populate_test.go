package experiment

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
	"github.com/dbgauge/dbgauge/internal/workload"
	"github.com/dbgauge/dbgauge/internal/workload/orders"
)

// ordersTables is the order-entry workload's schema on the test workload
// of workload_plugin_test.go: its tables, in parts by warehouse, with
// their keys and secondary indexes, through the sweep's own population.
type ordersTables struct{ kvLoad }

func (ordersTables) Schema(x int64) workload.Schema { return orders.Schema(x) }

// Two warehouses populated as a sweep populates a scale (the parts on as
// many sessions as the engine loads with, then the keys and the
// secondary indexes) hold every one of the twelve consistency
// conditions.
func TestPopulateOrders(t *testing.T) {
	for _, engine := range []string{"sqlite", "duckdb", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			url := ""
			switch engine {
			case "sqlite":
				url = "sqlite:" + filepath.Join(t.TempDir(), "o.db")
			case "duckdb":
				url = "duckdb:" + filepath.Join(t.TempDir(), "o.duckdb")
			default:
				url = servertest.Start(t, engine, server.Options{}).URL
			}
			e, err := dbms.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			open := func(ctx context.Context) (dbms.Engine, error) { return dbms.Open(ctx, url) }
			if _, err := populate(ctx, e, open, ordersTables{}, 2, formStatements, progress.New(nil)); err != nil {
				t.Fatal(err)
			}
			conditionsHold(t, ctx, e, orders.AfterLoadConditions)
		})
	}
}

// conditionsHold checks the order-entry conditions numbers on e: each
// that does not hold is an error naming it.
func conditionsHold(t *testing.T, ctx context.Context, e dbms.Engine, numbers []int) {
	t.Helper()
	rs, err := orders.CheckConditions(ctx, e, numbers)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if !r.Passed() {
			t.Error(r)
		}
	}
}

// On MariaDB, whose tables are stored in their primary keys
// (dbms.KeyedTables), the population creates every keyed table with its
// key and loads into it: after it each table has exactly the workload's
// primary key and its secondary indexes, and the twelve conditions hold.
// A second population over the first database (drop, create, load again)
// gives the same.
func TestPopulateOrdersKeyedTables(t *testing.T) {
	ctx := context.Background()
	inst := servertest.Start(t, "mariadb", server.Options{})
	e, err := dbms.Open(ctx, inst.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, ok := e.(dbms.KeyedTables); !ok {
		t.Fatalf("%s is not a dbms.KeyedTables", e.Name())
	}
	open := func(ctx context.Context) (dbms.Engine, error) { return dbms.Open(ctx, inst.URL) }
	wantKeys := map[string]string{}
	for _, pk := range orders.PrimaryKeys {
		wantKeys[pk.Table] = strings.Join(pk.Columns, ",")
	}
	wantIndexes := map[string]string{}
	for _, ix := range orders.Indexes {
		wantIndexes[ix.Table+"."+ix.Name] = strings.Join(ix.Columns, ",")
	}
	for round := 1; round <= 2; round++ {
		p, err := populate(ctx, e, open, ordersTables{}, 1, formStatements, progress.New(nil))
		if err != nil {
			t.Fatalf("population %d: %v", round, err)
		}
		if len(p.keyedTables) != len(orders.PrimaryKeys) {
			t.Errorf("population %d: tables created with their keys %v, want the %d with primary keys", round, p.keyedTables, len(orders.PrimaryKeys))
		}
		gotKeys := indexColumns(t, e, "INDEX_NAME = 'PRIMARY'", "TABLE_NAME")
		if !maps.Equal(gotKeys, wantKeys) {
			t.Errorf("population %d: primary keys %v, want %v", round, gotKeys, wantKeys)
		}
		gotIndexes := indexColumns(t, e, "INDEX_NAME <> 'PRIMARY'", "CONCAT(TABLE_NAME, '.', INDEX_NAME)")
		if !maps.Equal(gotIndexes, wantIndexes) {
			t.Errorf("population %d: secondary indexes %v, want %v", round, gotIndexes, wantIndexes)
		}
		conditionsHold(t, ctx, e, orders.AfterLoadConditions)
	}
}

// indexColumns are the columns, comma-separated in key order, of the
// indexes of the current database that where selects, by the name key
// gives each.
func indexColumns(t *testing.T, e dbms.Engine, where, key string) map[string]string {
	t.Helper()
	return dbmstest.QueryMap(t, context.Background(), e, fmt.Sprintf(
		"SELECT %s, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND %s GROUP BY TABLE_NAME, INDEX_NAME",
		key, where))
}
