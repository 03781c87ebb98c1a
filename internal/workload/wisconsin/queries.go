package wisconsin

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Org is a storage organisation (docs/wisconsin.md §5).
type Org string

const (
	Heap         Org = "heap"         // no index at all
	Hash         Org = "hash"         // hash index on unique2 (single-tuple queries only)
	Clustered    Org = "clustered"    // ordered on unique2 with an index on it
	NonClustered Org = "nonclustered" // secondary B-tree on unique1
	Indexed      Org = "indexed"      // clustered on unique2 and secondary on unique1
)

// Orgs lists the organisations in the order a run builds them: each step adds
// to the previous one (hash is added to the heap and removed again).
var Orgs = []Org{Heap, Hash, Clustered, NonClustered, Indexed}

// Query is one of the 32 queries of the Handbook numbering (docs/wisconsin.md §6).
type Query struct {
	Num   int
	Class string // the literature's name: "1% selection", "joinAselB", ...
	Org   Org
	// ToClient queries (7, 8) are defined as sending their rows to the
	// client whatever the run's destination.
	ToClient bool
	Update   bool
}

// Queries are the 32 queries and the hash variant of query 7, in run order
// within each organisation.
var Queries = []Query{
	{1, "1% selection", Heap, false, false},
	{2, "10% selection", Heap, false, false},
	{3, "1% selection", Clustered, false, false},
	{4, "10% selection", Clustered, false, false},
	{5, "1% selection", NonClustered, false, false},
	{6, "10% selection", NonClustered, false, false},
	{7, "single tuple to client", Clustered, true, false},
	{7, "single tuple to client", Hash, true, false},
	{8, "1% to client", Clustered, true, false},
	{9, "joinAselB", Heap, false, false},
	{10, "joinABprime", Heap, false, false},
	{11, "joinCselAselB", Heap, false, false},
	{12, "joinAselB", Clustered, false, false},
	{13, "joinABprime", Clustered, false, false},
	{14, "joinCselAselB", Clustered, false, false},
	{15, "joinAselB", NonClustered, false, false},
	{16, "joinABprime", NonClustered, false, false},
	{17, "joinCselAselB", NonClustered, false, false},
	{18, "projection 1%", Heap, false, false},
	{19, "projection 100%", Heap, false, false},
	{20, "min scalar aggregate", Heap, false, false},
	{21, "min aggregate function", Heap, false, false},
	{22, "sum aggregate function", Heap, false, false},
	{23, "min scalar aggregate", Indexed, false, false},
	{24, "min aggregate function", Indexed, false, false},
	{25, "sum aggregate function", Indexed, false, false},
	{26, "append one tuple", Heap, false, true},
	{27, "delete one tuple", Heap, false, true},
	{28, "modify key", Heap, false, true},
	{29, "append one tuple", Indexed, false, true},
	{30, "delete one tuple", Indexed, false, true},
	{31, "modify key", Indexed, false, true},
	{32, "modify indexed non-key", Indexed, false, true},
}

// Data is what a query needs to know of the loaded relations.
type Data struct {
	N            int64
	A, C, Bprime *Census
}

// Stmt is one execution of a query: for retrievals the SELECT and its result
// columns; for updates the untimed setup, the timed statement, and the
// untimed restore that leaves the relation as it was before the setup
// whether or not the timed statement took effect (docs/wisconsin.md §6 DECISION), with
// checks that prove it.
type Stmt struct {
	Select  string
	Columns []dbms.Column
	Setup   []string
	Timed   string
	Restore []string
	Verify  []Check
	// Expected is the exact result cardinality (rows, or rows affected).
	Expected int64
}

// Check is a COUNT query and the count it must return.
type Check struct {
	SQL  string
	Want int64
}

func countWhere(table, attr string, v int64, want int64) Check {
	return Check{fmt.Sprintf("SELECT COUNT(*) FROM %s WHERE %s = %d", table, attr, v), want}
}

// Build makes repetition rep of q: even repetitions read TENKTUP1 as A,
// odd ones TENKTUP2 (seed 000 §3.4), with fresh constants from rng.
func (q Query) Build(d *Data, rep int, rng *rand.Rand) (Stmt, error) {
	n := d.N
	a, b := TableName(Tenktup1, n), TableName(Tenktup2, n)
	if rep%2 == 1 {
		a, b = b, a
	}
	c, bp := TableName(Onektup, n), TableName(Bprime, n)
	if !d.A.Unique1Perm || !d.A.Unique2Perm {
		return Stmt{}, fmt.Errorf("the generated relation is not a permutation on unique1/unique2: expected cardinalities are undefined")
	}
	rangeOn := func(attr string, width int64) Stmt {
		x := rng.Int64N(n - width + 1)
		return Stmt{
			Select:   fmt.Sprintf("SELECT * FROM %s WHERE %s BETWEEN %d AND %d", a, attr, x, x+width-1),
			Columns:  Columns(),
			Expected: width,
		}
	}
	switch q.Num {
	case 1, 3, 8:
		return rangeOn("unique2", n/100), nil
	case 2, 4:
		return rangeOn("unique2", n/10), nil
	case 5:
		return rangeOn("unique1", n/100), nil
	case 6:
		return rangeOn("unique1", n/10), nil
	case 7:
		x := rng.Int64N(n)
		return Stmt{Select: fmt.Sprintf("SELECT * FROM %s WHERE unique2 = %d", a, x), Columns: Columns(), Expected: 1}, nil
	case 9, 12:
		return joinAselB(a, b, "unique2", n), nil
	case 15:
		return joinAselB(a, b, "unique1", n), nil
	case 10, 13:
		return joinABprime(a, bp, "unique2", d.Bprime.Tuples), nil
	case 16:
		return joinABprime(a, bp, "unique1", d.Bprime.Tuples), nil
	case 11, 14:
		return joinCselAselB(c, a, b, "unique2", n, d.C), nil
	case 17:
		return joinCselAselB(c, a, b, "unique1", n, d.C), nil
	case 18:
		cols := []string{"two", "four", "ten", "twenty", "onepercent", "string4"}
		return Stmt{Select: fmt.Sprintf("SELECT DISTINCT %s FROM %s", strings.Join(cols, ", "), a), Columns: pick(cols...), Expected: d.A.Q18Distinct}, nil
	case 19:
		cols := []string{"two", "four", "ten", "twenty", "onepercent", "tenpercent", "twentypercent", "fiftypercent", "unique3", "evenonepercent", "oddonepercent", "stringu1", "stringu2", "string4"}
		// unique3 is a permutation, so no two projected tuples are equal.
		return Stmt{Select: fmt.Sprintf("SELECT DISTINCT %s FROM %s", strings.Join(cols, ", "), a), Columns: pick(cols...), Expected: d.A.Tuples}, nil
	case 20, 23:
		return Stmt{Select: fmt.Sprintf("SELECT MIN(unique2) AS min_unique2 FROM %s", a), Columns: []dbms.Column{{Name: "min_unique2", Type: dbms.Int}}, Expected: 1}, nil
	case 21, 24:
		return Stmt{Select: fmt.Sprintf("SELECT MIN(unique3) AS min_unique3 FROM %s GROUP BY onepercent", a), Columns: []dbms.Column{{Name: "min_unique3", Type: dbms.Int}}, Expected: groups(d.A)}, nil
	case 22, 25:
		return Stmt{Select: fmt.Sprintf("SELECT SUM(unique3) AS sum_unique3 FROM %s GROUP BY onepercent", a), Columns: []dbms.Column{{Name: "sum_unique3", Type: dbms.BigInt}}, Expected: groups(d.A)}, nil
	case 26, 29:
		k := n + int64(rep)
		return Stmt{Timed: insertTuple(a, k), Restore: []string{deleteKey(a, k)}, Verify: []Check{countWhere(a, "unique2", k, 0)}, Expected: 1}, nil
	case 27, 30:
		k := n + int64(rep)
		return Stmt{Setup: []string{insertTuple(a, k)}, Timed: fmt.Sprintf("DELETE FROM %s WHERE unique1 = %d", a, k),
			Restore: []string{deleteKey(a, k)}, Verify: []Check{countWhere(a, "unique2", k, 0)}, Expected: 1}, nil
	case 28, 31:
		return modify(a, "unique2", n, rep, rng), nil
	case 32:
		return modify(a, "unique1", n, rep, rng), nil
	}
	return Stmt{}, fmt.Errorf("unknown query %d", q.Num)
}

// joinAselB: A join B on attr, with B restricted to attr < N/10.
func joinAselB(a, b, attr string, n int64) Stmt {
	sel, cols := joinColumns([]string{"a", "b"})
	return Stmt{
		Select:   fmt.Sprintf("SELECT %s FROM %s a, %s b WHERE a.%s = b.%s AND b.%s < %d", sel, a, b, attr, attr, attr, n/10),
		Columns:  cols,
		Expected: n / 10,
	}
}

// joinABprime: A join B' on attr; every B' tuple finds exactly one partner.
func joinABprime(a, bp, attr string, bpTuples int64) Stmt {
	sel, cols := joinColumns([]string{"a", "b"})
	return Stmt{
		Select:   fmt.Sprintf("SELECT %s FROM %s a, %s b WHERE a.%s = b.%s", sel, a, bp, attr, attr),
		Columns:  cols,
		Expected: bpTuples,
	}
}

// joinCselAselB: C joined with A and B on attr, A and B restricted to
// attr < N/10 (seed 000 Appendix I restricts both); C's keys are exactly
// 0..N/10-1, so each selected A tuple has one partner in C and in B.
func joinCselAselB(c, a, b, attr string, n int64, cc *Census) Stmt {
	sel, cols := joinColumns([]string{"c", "a", "b"})
	return Stmt{
		Select: fmt.Sprintf("SELECT %s FROM %s c, %s a, %s b WHERE c.%s = a.%s AND a.%s = b.%s AND a.%s < %d AND b.%s < %d",
			sel, c, a, b, attr, attr, attr, attr, attr, n/10, attr, n/10),
		Columns:  cols,
		Expected: cc.Tuples,
	}
}

// joinColumns renders every attribute of each alias as alias_attr, so that a
// stored join result has distinct column names on every engine.
func joinColumns(aliases []string) (string, []dbms.Column) {
	var sel []string
	var cols []dbms.Column
	base := Columns()
	for _, al := range aliases {
		for _, c := range base {
			name := al + "_" + c.Name
			sel = append(sel, fmt.Sprintf("%s.%s AS %s", al, c.Name, name))
			cols = append(cols, dbms.Column{Name: name, Type: c.Type, Len: c.Len})
		}
	}
	return strings.Join(sel, ", "), cols
}

func pick(names ...string) []dbms.Column {
	all := Columns()
	var out []dbms.Column
	for _, n := range names {
		for _, c := range all {
			if c.Name == n {
				out = append(out, c)
			}
		}
	}
	return out
}

func groups(c *Census) int64 {
	var g int64
	for _, k := range c.OnePercent {
		if k > 0 {
			g++
		}
	}
	return g
}

// insertTuple renders the tuple with unique1 = unique2 = k (k >= N, so no
// existing key collides: docs/wisconsin.md §6 DECISION).
func insertTuple(table string, k int64) string {
	row := make([]any, len(Attributes))
	Fill(row, k, k)
	vals := make([]string, len(row))
	for i, v := range row {
		vals[i] = dbms.Quote(v)
	}
	return fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", table, strings.Join(Attributes, ", "), strings.Join(vals, ", "))
}

// deleteKey removes the tuple an append inserted (unique1 = unique2 = k).
func deleteKey(table string, k int64) string {
	return fmt.Sprintf("DELETE FROM %s WHERE unique2 = %d", table, k)
}

// modify changes one key to a fresh value >= N and back again untimed.
func modify(table, attr string, n int64, rep int, rng *rand.Rand) Stmt {
	old, k := rng.Int64N(n), n+int64(rep)
	return Stmt{
		Timed:    fmt.Sprintf("UPDATE %s SET %s = %d WHERE %s = %d", table, attr, k, attr, old),
		Restore:  []string{fmt.Sprintf("UPDATE %s SET %s = %d WHERE %s = %d", table, attr, old, attr, k)},
		Verify:   []Check{countWhere(table, attr, k, 0), countWhere(table, attr, old, 1)},
		Expected: 1,
	}
}

// ParseQueries reads a --queries list such as "1-8,18,20-22".
func ParseQueries(s string) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi := part, part
		if i := strings.Index(part, "-"); i > 0 {
			lo, hi = part[:i], part[i+1:]
		}
		var l, h int
		if _, err := fmt.Sscan(lo, &l); err != nil {
			return nil, fmt.Errorf("%q is not a query number (1-32)", part)
		}
		if _, err := fmt.Sscan(hi, &h); err != nil {
			return nil, fmt.Errorf("%q is not a query number (1-32)", part)
		}
		if l < 1 || h > 32 || l > h {
			return nil, fmt.Errorf("unknown query number in %q (the Wisconsin queries are 1-32)", part)
		}
		for q := l; q <= h; q++ {
			if !seen[q] {
				seen[q] = true
				out = append(out, q)
			}
		}
	}
	return out, nil
}

// QueriesUnder lists the numbers of the queries org runs, in the order of
// Queries (hash runs only the single-tuple query 7).
func QueriesUnder(org Org) []int {
	var out []int
	for _, q := range Queries {
		if q.Org == org {
			out = append(out, q.Num)
		}
	}
	return out
}

// FormatQueries writes query numbers as ParseQueries reads them, runs of
// consecutive numbers as ranges: [1 2 9 10 11] is "1-2,9-11".
func FormatQueries(nums []int) string {
	var parts []string
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, fmt.Sprint(nums[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", nums[i], nums[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}
