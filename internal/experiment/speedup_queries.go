package experiment

import (
	"fmt"
	"math/rand/v2"

	"github.com/dbgauge/dbgauge/internal/dbms"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// speedupOrgs are the organisations in the order they are built (each
// step adds to the previous one).
var speedupOrgs = []w.Org{w.Heap, w.Clustered, w.NonClustered}

// speedupQuery is one query of the speedup runs with its text fixed: the
// same constants at every p, memory and page size, so that the variable
// is the only thing that changes.
type speedupQuery struct {
	num       int // Wisconsin number; 0 = the 0% selection
	class     string
	org       w.Org
	attribute string
	sql       string
	expected  int64
	join      bool
	// columns describe the result for engines that need them to create
	// the result relation.
	columns []dbms.Column
}

// speedupNums are the Wisconsin queries of each organisation: the 1% and
// 10% selections and the three joins (seed 003 Tables 1 and 3). Heap and
// clustered read unique2, the key; non-clustered reads unique1, the
// non-key attribute.
var speedupNums = map[w.Org][]int{
	w.Heap:         {1, 2, 9, 10, 11},
	w.Clustered:    {3, 4, 12, 13, 14},
	w.NonClustered: {5, 6, 15, 16, 17},
}

// speedupQueries are the 0% selection and the Wisconsin queries of org on
// relations of size d.N, TENKTUP1 as A.
func speedupQueries(d *w.Data, org w.Org, seed uint64) ([]speedupQuery, error) {
	attr := "unique2"
	if org == w.NonClustered {
		attr = "unique1"
	}
	a := w.TableName(w.Tenktup1, d.N)
	// Seed 003's 0% selection reads the relation (or the index) and finds
	// nothing: its time is the scan's without the cost of any result.
	out := []speedupQuery{{
		num: 0, class: "0% selection", org: org, attribute: attr,
		sql:     fmt.Sprintf("SELECT * FROM %s WHERE %s BETWEEN %d AND -1", a, attr, -max(d.N/100, 1)),
		columns: w.Columns(),
	}}
	rng := rand.New(rand.NewPCG(seed, 3))
	for _, num := range speedupNums[org] {
		q, err := wisconsinQueryIn(num, org)
		if err != nil {
			return nil, err
		}
		st, err := q.Build(d, 0, rng)
		if err != nil {
			return nil, fmt.Errorf("query %d: %w", num, err)
		}
		out = append(out, speedupQuery{num: num, class: q.Class, org: org, attribute: attr, sql: st.Select, expected: st.Expected, join: num >= 9, columns: st.Columns})
	}
	return out, nil
}

// wisconsinQueryIn is query num in organisation org.
func wisconsinQueryIn(num int, org w.Org) (w.Query, error) {
	for _, q := range w.Queries {
		if q.Num == num && q.Org == org {
			return q, nil
		}
	}
	return w.Query{}, fmt.Errorf("no Wisconsin query %d in organisation %s", num, org)
}

// countSQL counts a query's result inside the engine.
func countSQL(sql string) string {
	return "SELECT COUNT(*) FROM (" + sql + ") AS q"
}
