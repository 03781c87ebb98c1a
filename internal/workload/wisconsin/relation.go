package wisconsin

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Attributes in schema order (docs/wisconsin.md §1).
var Attributes = []string{
	"unique1", "unique2", "two", "four", "ten", "twenty", "onepercent",
	"tenpercent", "twentypercent", "fiftypercent", "unique3",
	"evenonepercent", "oddonepercent", "stringu1", "stringu2", "string4",
}

// Columns is the relation schema: 13 integers and 3 char(52).
func Columns() []dbms.Column {
	cols := make([]dbms.Column, len(Attributes))
	for i, a := range Attributes {
		cols[i] = dbms.Column{Name: a, Type: dbms.Int}
		if i >= 13 {
			cols[i] = dbms.Column{Name: a, Type: dbms.Char, Len: StringLen}
		}
	}
	return cols
}

// Relation names one of the four relations of a benchmark at base size N.
type Relation int

const (
	Tenktup1 Relation = iota // A
	Tenktup2                 // B
	Onektup                  // C
	Bprime                   // B'
)

var relNames = [...]string{"tenktup1", "tenktup2", "onektup", "bprime"}

func (r Relation) String() string { return relNames[r] }

// Relations lists the four, in load order.
var Relations = []Relation{Tenktup1, Tenktup2, Onektup, Bprime}

// TableName is the relation's table for base size n. The size is part of the
// name so that a scale-up run keeps every size side by side (and Firebird's
// 31-character identifier limit holds up to the largest N).
func TableName(r Relation, n int64) string {
	return fmt.Sprintf("%s_n%d", relNames[r], n)
}

// Cardinality of relation r at base size n.
func Cardinality(r Relation, n int64) int64 {
	if r == Onektup || r == Bprime {
		return n / 10
	}
	return n
}

// CheckSize validates a base size: 100 must divide it (so every selectivity
// is exact) and the generator must support it.
func CheckSize(n int64) error {
	if n < 100 || n%100 != 0 {
		return fmt.Errorf("size %d: the Wisconsin base size must be a positive multiple of 100 (e.g. 10000)", n)
	}
	if n > MaxSize {
		return fmt.Errorf("size %d: above the largest supported size %d", n, int64(MaxSize))
	}
	return nil
}
