package mysql

import (
	"fmt"
	"hash/crc32"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// testTable has every column type; k is a permutation of 1..n in load order
// so clustering on it visibly reorders the table.
var testTable = dbms.Table{Name: "t", Columns: []dbms.Column{
	{Name: "id", Type: dbms.Int},
	{Name: "k", Type: dbms.Int},
	{Name: "big", Type: dbms.BigInt},
	{Name: "s", Type: dbms.Char, Len: 24},
}}

// genRows yields n deterministic rows; some strings hold the characters the
// text load format must escape, and a quote for the INSERT path.
type genRows struct{ i, n int }

func (g *genRows) Next(row []any) bool {
	if g.i >= g.n {
		return false
	}
	g.i++
	i := g.i
	row[0] = int64(i)
	row[1] = int64(i*7919%g.n + 1)
	row[2] = int64(i) * 3_000_000_019
	row[3] = genString(i)
	return true
}

func genString(i int) string {
	s := fmt.Sprintf("s%05d", i)
	switch {
	case i%97 == 0:
		s += "\ttab"
	case i%89 == 0:
		s += `\back`
	case i%83 == 0:
		s += "\nnl"
	case i%79 == 0:
		s += `q'"d`
	case i%73 == 0:
		s += `\N`
	}
	return s
}

// wantSums are the sums a correct load of n rows gives:
// SUM(id), SUM(k), SUM(big), SUM(CRC32(s)).
func wantSums(n int) [4]string {
	var id, k, big, crc int64
	g := &genRows{n: n}
	row := make([]any, 4)
	for g.Next(row) {
		id += row[0].(int64)
		k += row[1].(int64)
		big += row[2].(int64)
		crc += int64(crc32.ChecksumIEEE([]byte(row[3].(string))))
	}
	return [4]string{fmt.Sprint(id), fmt.Sprint(k), fmt.Sprint(big), fmt.Sprint(crc)}
}
