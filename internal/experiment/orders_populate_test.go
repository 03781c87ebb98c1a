package experiment

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
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
