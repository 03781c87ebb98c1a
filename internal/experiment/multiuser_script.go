package experiment

import (
	"context"
	"fmt"
	"math/rand/v2"
	"unsafe"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Retrieve is one query of a user's script: a simple restriction on one
// attribute of TENKTUP1, the rows with Low <= Attr <= High. unique1 and
// unique2 are permutations of 0..N-1, so it returns exactly High-Low+1 rows.
type Retrieve struct {
	Attr string `json:"attr"` // unique1 (non-clustered index) or unique2 (clustered)
	Low  int64  `json:"low"`
	High int64  `json:"high"`
}

// ScriptBytes is the memory one user's script of retrieves holds: the
// master builds every user's before it starts them, so --retrieves and
// --users together are bounded by it.
func ScriptBytes(retrieves int) int64 { return int64(retrieves) * int64(unsafe.Sizeof(Retrieve{})) }

// SQL is the retrieve on table: an exact match for one row, a range
// otherwise.
func (r Retrieve) SQL(table string) string {
	if r.Low == r.High {
		return fmt.Sprintf("SELECT * FROM %s WHERE %s = %d", table, r.Attr, r.Low)
	}
	return fmt.Sprintf("SELECT * FROM %s WHERE %s BETWEEN %d AND %d", table, r.Attr, r.Low, r.High)
}

// Expected is the exact number of rows the retrieve returns.
func (r Retrieve) Expected() int64 { return r.High - r.Low + 1 }

// MultiuserScript is user's script: retrieves queries on a relation of n
// tuples, each returning rows rows. Every third one (positions 2, 5, 8 ...)
// restricts the clustered unique2, the others the non-clustered unique1: two
// thirds and one third, as the IDM test's scripts. The constants come from
// a generator seeded with (seed, user), so user u runs the same script at
// every user count and in every repetition, and no two users share one.
func MultiuserScript(seed uint64, user int, n int64, retrieves int, rows int64) []Retrieve {
	rng := rand.New(rand.NewPCG(seed, 0x6d75_0000_0000+uint64(user)))
	out := make([]Retrieve, retrieves)
	for i := range out {
		attr := "unique1"
		if i%3 == 2 {
			attr = "unique2"
		}
		low := rng.Int64N(n - rows + 1)
		out[i] = Retrieve{Attr: attr, Low: low, High: low + rows - 1}
	}
	return out
}

// runScript runs a script on one session and checks every result's
// cardinality: a wrong count means the engine answered another query, and
// its time would mean nothing.
func runScript(ctx context.Context, e dbms.Engine, table string, script []Retrieve) (int64, error) {
	var total int64
	for i, r := range script {
		q := r.SQL(table)
		n, err := e.QueryCount(ctx, q)
		if err != nil {
			return total, fmt.Errorf("retrieve %d (%s): %w", i+1, q, err)
		}
		if n != r.Expected() {
			return total, fmt.Errorf("retrieve %d (%s): %d rows, expected %d", i+1, q, n, r.Expected())
		}
		total += n
	}
	return total, nil
}
