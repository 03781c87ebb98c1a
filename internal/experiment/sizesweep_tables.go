package experiment

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// sweepTable is one size's relation under one access method.
type sweepTable struct {
	access string
	name   string
	attr   string // the attribute the retrieve restricts
	size   int64
}

// sweepAccess maps an access method to the organisation it needs, the
// attribute its retrieve restricts and a short name (Firebird allows 31
// characters, index suffix included). The scan restricts unique2 like the
// clustered retrieve, so the two differ only by the index.
var sweepAccess = map[string]struct {
	org   w.Org
	attr  string
	short string
}{
	results.AccessNone:         {w.Heap, "unique2", "none"},
	results.AccessClustered:    {w.Clustered, "unique2", "clu"},
	results.AccessNonClustered: {w.NonClustered, "unique1", "ncl"},
}

// rangeWidth is how many tuples one retrieve returns.
func rangeWidth(kind string, n int64) int64 {
	if kind == RetrievePercent {
		return max(n/100, 1)
	}
	return 1
}

func (t sweepTable) expected(kind string) int64 { return rangeWidth(kind, t.size) }

// retrieve is the statement of one repetition with constant key and the
// number of rows it must return.
func (t sweepTable) retrieve(kind string, key int64) (string, int64) {
	width := rangeWidth(kind, t.size)
	if width == 1 {
		return fmt.Sprintf("SELECT * FROM %s WHERE %s = %d", t.name, t.attr, key), 1
	}
	return fmt.Sprintf("SELECT * FROM %s WHERE %s BETWEEN %d AND %d", t.name, t.attr, key, key+width-1), width
}

// prepare makes size n's relation once per access method. The generator
// makes sizes that are multiples of 100; every table is cut from the
// TENKTUP1 of the next such size with CREATE TABLE AS ... WHERE attr < n
// (as qac cuts), on the attribute its retrieve restricts, so that the
// attribute is again a permutation of 0..n-1 and every constant hits.
// A size that is a multiple of 100 keeps all the rows it is cut from.
func (r *sizeSweepRun) prepare(ctx context.Context, n int64) ([]sweepTable, error) {
	m := (n + 99) / 100 * 100
	if m != r.baseSize {
		if r.base != "" && !r.plan.Keep {
			r.drop(ctx, r.base)
		}
		r.base, r.baseSize = "", 0
		lr, _, err := loadRelation(ctx, r.e, w.Tenktup1, m, r.pr)
		if err != nil {
			return nil, err
		}
		r.res.Loads = append(r.res.Loads, lr)
		r.run.Journal().Append(lr)
		r.base, r.baseSize = lr.Table, m
	}
	var out []sweepTable
	for _, a := range r.plan.Access {
		acc, ok := sweepAccess[a]
		if !ok {
			return out, fmt.Errorf("unknown access method %q", a)
		}
		t := sweepTable{access: a, name: fmt.Sprintf("ssw_%s_n%d", acc.short, n), attr: acc.attr, size: n}
		if err := r.cut(ctx, t.name, acc.attr, n); err != nil {
			return out, err
		}
		out = append(out, t)
		if err := organizeTable(ctx, r.e, t.name, acc.org); err != nil {
			return out, err
		}
		r.run.Journal().Append(results.SizeSweepOrganize{Size: n, Access: a, Table: t.name, Organization: string(acc.org)})
	}
	return out, nil
}

// cut makes table name from the base's rows with attr < n and checks that
// it holds n rows.
func (r *sizeSweepRun) cut(ctx context.Context, name, attr string, n int64) error {
	if err := r.e.DropTable(ctx, name); err != nil {
		return fmt.Errorf("drop %s: %w", name, err)
	}
	q := fmt.Sprintf("SELECT * FROM %s WHERE %s < %d", r.base, attr, n)
	if err := r.e.CreateTableAs(ctx, name, q, w.Columns()); err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	v, err := dbms.FirstValue(ctx, r.e, "SELECT COUNT(*) FROM "+name)
	if err != nil {
		return fmt.Errorf("count %s: %w", name, err)
	}
	if got, _ := strconv.ParseInt(v, 10, 64); got != n {
		return fmt.Errorf("%s holds %s rows, not %d", name, v, n)
	}
	return nil
}

// drop removes a table this run made; a failure is a warning.
func (r *sizeSweepRun) drop(ctx context.Context, name string) {
	if err := r.e.DropTable(ctx, name); err != nil {
		r.warn(fmt.Sprintf("drop %s: %v", name, err))
	}
}
