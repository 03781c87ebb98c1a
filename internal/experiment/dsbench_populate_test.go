package experiment

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// kvIndexed is the test workload of workload_plugin_test.go with a
// secondary index of two columns on its table.
type kvIndexed struct{ kvLoad }

func (w kvIndexed) Schema(x int64) workload.Schema {
	s := w.kvLoad.Schema(x)
	s.Indexes = []workload.Index{{Table: kvTable, Name: "kv_by_value", Columns: []string{"v", "k"}}}
	return s
}

// The schema's secondary indexes exist after population, over their
// columns in their order, and a second population (which drops the
// tables first) builds them again.
func TestPopulateCreatesIndexes(t *testing.T) {
	ctx := context.Background()
	e, err := dbms.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "ix.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for round := 1; round <= 2; round++ {
		if _, err := populate(ctx, e, nil, kvIndexed{}, 1, formStatements, progress.New(nil)); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		rows, err := e.QueryRows(ctx, "SELECT name FROM pragma_index_info('kv_by_value') ORDER BY seqno")
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2 || rows[0][0] != "v" || rows[1][0] != "k" {
			t.Fatalf("round %d: index kv_by_value has columns %v, want [v k]", round, rows)
		}
	}
}
