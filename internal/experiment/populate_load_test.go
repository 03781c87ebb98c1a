package experiment

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// partsWorkload is a workload of one table whose rows come in parts
// (workload.Table.FillPart) or, with whole set, as one stream (Fill): the
// two forms must load the same rows.
type partsWorkload struct {
	whole bool
}

const (
	partsOf     = 5
	rowsPerPart = 3000
)

var partsTable = dbms.Table{Name: "parted", Columns: []dbms.Column{
	{Name: "id", Type: dbms.BigInt},
	{Name: "part", Type: dbms.Int},
	{Name: "label", Type: dbms.Varchar, Len: 16},
	{Name: "amount", Type: dbms.Decimal, Len: 12, Scale: 2},
	{Name: "at_t", Type: dbms.Timestamp},
}}

func (w partsWorkload) Meta() workload.Meta   { return workload.Meta{Name: "parts"} }
func (w partsWorkload) Scale() workload.Scale { return workload.Scale{Unit: "one table"} }
func (w partsWorkload) Types() []workload.Type {
	return []workload.Type{{Name: "none", Weight: 1}}
}
func (w partsWorkload) Writes() bool                                    { return false }
func (w partsWorkload) NewClient(workload.ClientConfig) workload.Client { return nil }
func (w partsWorkload) NewCheck(int64) workload.Check                   { return nil }

func (w partsWorkload) Schema(x int64) workload.Schema {
	t := workload.Table{Table: partsTable, Rows: partsOf * rowsPerPart}
	if w.whole {
		t.Fill = func() dbms.RowSource { return &partRows{from: 0, to: partsOf * rowsPerPart} }
	} else {
		t.Parts = partsOf
		t.FillPart = func(p int) dbms.RowSource { return &partRows{from: p * rowsPerPart, to: (p + 1) * rowsPerPart} }
	}
	return workload.Schema{Tables: []workload.Table{t}}
}

// partRows yields rows from..to-1 of the table: a NULL label every 7th
// row, amounts around zero, times a minute apart.
type partRows struct{ from, to int }

func (r *partRows) Next(row []any) bool {
	if r.from == r.to {
		return false
	}
	i := r.from
	row[0], row[1] = int64(i), int64(i/rowsPerPart)
	row[2] = fmt.Sprintf("row %d", i)
	if i%7 == 0 {
		row[2] = nil
	}
	row[3] = fmt.Sprintf("%d.%02d", i/10-700, i%100)
	row[4] = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
	r.from++
	return true
}

// checkPartsLoad populates the table whole and then in parts on url and
// compares every row; the partitioned load must have opened the extra
// sessions the engine's dbms.LoadSessions allows.
func checkPartsLoad(t *testing.T, url string) {
	ctx := context.Background()
	e, err := dbms.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var opened atomic.Int64
	open := func(ctx context.Context) (dbms.Engine, error) {
		opened.Add(1)
		return dbms.Open(ctx, url)
	}
	read := func(w partsWorkload) [][]string {
		t.Helper()
		if _, err := populate(ctx, e, open, w, 1, formStatements, progress.New(nil)); err != nil {
			t.Fatalf("populate (whole %v): %v", w.whole, err)
		}
		rows, err := e.QueryRows(ctx, "SELECT id, part, label, amount, at_t FROM parted ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	whole := read(partsWorkload{whole: true})
	if opened.Load() != 0 {
		t.Errorf("an unpartitioned table opened %d extra sessions", opened.Load())
	}
	parts := read(partsWorkload{})
	if len(whole) != partsOf*rowsPerPart {
		t.Fatalf("whole form loaded %d rows, want %d", len(whole), partsOf*rowsPerPart)
	}
	if !reflect.DeepEqual(whole, parts) {
		for i := range whole {
			if i >= len(parts) || !reflect.DeepEqual(whole[i], parts[i]) {
				t.Fatalf("%d rows in parts, %d whole; first difference at row %d: %q, whole %q", len(parts), len(whole), i, parts[min(i, len(parts)-1)], whole[i])
			}
		}
		t.Fatalf("%d rows in parts, %d whole", len(parts), len(whole))
	}
	if want := int64(min(partsOf, dbms.LoadSessions(e)) - 1); opened.Load() != want {
		t.Errorf("the partitioned load opened %d extra sessions, want %d (LoadSessions %d)", opened.Load(), want, dbms.LoadSessions(e))
	}
}

func TestPopulatePartsEmbedded(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { checkPartsLoad(t, "sqlite:"+filepath.Join(t.TempDir(), "p.db")) })
	t.Run("duckdb", func(t *testing.T) { checkPartsLoad(t, "duckdb:"+filepath.Join(t.TempDir(), "p.duckdb")) })
}

func TestPopulatePartsServers(t *testing.T) {
	for _, eng := range []string{"postgres", "mariadb", "firebird"} {
		t.Run(eng, func(t *testing.T) {
			checkPartsLoad(t, servertest.Start(t, eng, server.Options{}).URL)
		})
	}
}
