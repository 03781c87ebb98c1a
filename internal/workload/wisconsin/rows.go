package wisconsin

// Rows streams the tuples of one relation in generation order (unique2 = i).
// It implements dbms.RowSource: values are int64 and string. Memory is
// constant apart from the census (one bit per tuple).
type Rows struct {
	n     int64 // tuples to emit
	i     int64
	perm  *Permutation
	cen   *Census
	trace func(i int64) // progress hook, called every 1<<16 rows
}

// NewRows streams relation r at base size n, recording a census as it goes.
func NewRows(r Relation, n int64) (*Rows, error) {
	if err := CheckSize(n); err != nil {
		return nil, err
	}
	gen := n // the cardinality the permutation is drawn over
	if r == Onektup {
		gen = n / 10 // C has its own N/10 (docs/wisconsin.md §4)
	}
	perm, err := NewPermutation(gen)
	if err != nil {
		return nil, err
	}
	// B' is the first N/10 tuples of B: unique2 = i < N/10.
	count := Cardinality(r, n)
	return &Rows{n: count, perm: perm, cen: newCensus(gen)}, nil
}

// OnProgress sets a hook called with the number of rows emitted so far,
// every 65,536 rows.
func (g *Rows) OnProgress(f func(int64)) { g.trace = f }

// Next fills row (16 values) with the next tuple; false at the end.
func (g *Rows) Next(row []any) bool {
	if g.i >= g.n {
		return false
	}
	u1 := g.perm.Next()
	u2 := g.i
	Fill(row, u1, u2)
	g.cen.add(u1, u2)
	g.i++
	if g.trace != nil && g.i&0xFFFF == 0 {
		g.trace(g.i)
	}
	return true
}

// Census is what the generator saw; valid after the last Next.
func (g *Rows) Census() *Census { return g.cen }

// Fill writes the tuple with the given unique1 and unique2 into row.
func Fill(row []any, u1, u2 int64) {
	one := u1 % 100
	row[0] = u1
	row[1] = u2
	row[2] = u1 % 2
	row[3] = u1 % 4
	row[4] = u1 % 10
	row[5] = u1 % 20
	row[6] = one
	row[7] = u1 % 10
	row[8] = u1 % 5
	row[9] = u1 % 2
	row[10] = u1
	row[11] = one * 2
	row[12] = one*2 + 1
	row[13] = Str(u1)
	row[14] = Str(u2)
	row[15] = String4(u2)
}
