package experiment

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// qacTable is the variable table at one cardinality and the query on it.
type qacTable struct {
	card     int64
	name     string
	query    string
	expected int64 // -1: unknown (--sql)
}

// wisconsinQuery is the first of the 32 queries numbered num (query 7's
// clustered form comes before its hash form).
func wisconsinQuery(num int) (w.Query, error) {
	for _, q := range w.Queries {
		if q.Num == num {
			return q, nil
		}
	}
	return w.Query{}, fmt.Errorf("no Wisconsin query %d", num)
}

// cutAttribute is the attribute whose range a Wisconsin selection reads:
// the smaller tables keep the tuples with cutAttribute < C, so that it is
// again a permutation of 0..C-1 and the query's selectivity stays exact.
func cutAttribute(num int) string {
	if num == 5 || num == 6 {
		return "unique1"
	}
	return "unique2"
}

// buildTables loads TENKTUP1 at the largest cardinality (--wisconsin) or
// starts from the user's table (--sql), cuts the smaller cardinalities
// from it with CREATE TABLE AS, gives each the query's organisation, and
// fixes each Q@C's query text (the same constants for all its QEs).
func (r *qacRun) buildTables(ctx context.Context) ([]qacTable, error) {
	cards := r.plan.Cardinalities
	largest := cards[len(cards)-1]
	rng := rand.New(rand.NewPCG(r.plan.Seed, 7))
	var out []qacTable
	if r.plan.Wisconsin == 0 {
		for _, c := range cards {
			name := fmt.Sprintf("qac_c%d", c)
			if err := r.cutUnlessDone(ctx, r.plan.Table, name, r.plan.Key, c, nil); err != nil {
				return nil, err
			}
			out = append(out, qacTable{card: c, name: name, query: strings.ReplaceAll(r.plan.SQL, "{table}", name), expected: -1})
		}
		return out, nil
	}
	q, err := wisconsinQuery(r.plan.Wisconsin)
	if err != nil {
		return nil, err
	}
	lr, _, err := loadRelation(ctx, r.e, w.Tenktup1, largest, r.pr)
	if err != nil {
		return nil, err
	}
	r.res.Load = &lr
	big := w.TableName(w.Tenktup1, largest)
	for _, c := range cards {
		name := big
		if c != largest {
			name = fmt.Sprintf("qac_tenktup1_c%d", c)
			if err := r.cutUnlessDone(ctx, big, name, cutAttribute(q.Num), c, w.Columns()); err != nil {
				return nil, err
			}
		}
		if _, done := r.done[c]; !done {
			if err := organizeTable(ctx, r.e, name, q.Org); err != nil {
				return nil, err
			}
		}
		d := &w.Data{N: c, A: &w.Census{Tuples: c, Unique1Perm: true, Unique2Perm: true}}
		st, err := q.Build(d, 0, rng)
		if err != nil {
			return nil, err
		}
		text := strings.ReplaceAll(st.Select, w.TableName(w.Tenktup1, c), name)
		out = append(out, qacTable{card: c, name: name, query: text, expected: st.Expected})
	}
	return out, nil
}

// cutUnlessDone cuts the table of cardinality c unless a resumed run
// completed its Q@C, which needs it no more.
func (r *qacRun) cutUnlessDone(ctx context.Context, src, name, key string, c int64, cols []dbms.Column) error {
	if _, done := r.done[c]; done {
		return nil
	}
	return r.cut(ctx, src, name, key, c, cols)
}

// cut makes table name from the rows of src with key < c.
func (r *qacRun) cut(ctx context.Context, src, name, key string, c int64, cols []dbms.Column) error {
	if err := r.e.DropTable(ctx, name); err != nil {
		return fmt.Errorf("drop %s: %w", name, err)
	}
	r.pr.Line("cardinality %d: %s = rows of %s with %s < %d", c, name, src, key, c)
	if err := r.e.CreateTableAs(ctx, name, fmt.Sprintf("SELECT * FROM %s WHERE %s < %d", src, key, c), cols); err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	rows, err := r.e.QueryRows(ctx, "SELECT COUNT(*) FROM "+name)
	if err != nil {
		return err
	}
	n, _ := strconv.ParseInt(rows[0][0], 10, 64)
	if n != c {
		return dbms.Wrap(dbms.BadInput, fmt.Errorf("%s holds %d rows with %s < %d, not %d: the key must number the rows 0..N-1", src, n, key, c, c))
	}
	r.made = append(r.made, name)
	return r.e.Analyze(ctx, name)
}

// organizeTable gives a Wisconsin table the organisation a query reads:
// clustered on unique2, a non-clustered index on unique1, or a hash index
// on unique2; heap leaves it as loaded. Then it analyzes the table.
func organizeTable(ctx context.Context, e dbms.Engine, table string, org w.Org) error {
	var err error
	switch org {
	case w.Clustered:
		err = e.Cluster(ctx, dbms.Table{Name: table, Columns: w.Columns()}, table+"_u2", "unique2")
	case w.NonClustered:
		err = e.CreateIndex(ctx, table, table+"_u1", "unique1", dbms.BTree, false)
	case w.Hash:
		err = e.CreateIndex(ctx, table, table+"_h2", "unique2", dbms.Hash, false)
	}
	if err != nil {
		return fmt.Errorf("organize %s (%s): %w", table, org, err)
	}
	return e.Analyze(ctx, table)
}
