package dbms

import (
	"fmt"
	"math"
	"math/big"
)

// InexactDecimal is an engine that does not store Decimal columns exactly:
// SQLite, whose NUMERIC affinity keeps "300000.00" as the integer 300000
// and "0.10" as the binary double nearest to 0.1, so a SUM of such values
// can be off in its last binary digits (0.10 + 0.20 gives
// 0.30000000000000004). A check that compares money for equality rounds
// such an engine's results to the column's scale first; the answer says
// why, for the run's record.
type InexactDecimal interface {
	InexactDecimal() string
}

// DecimalUnscaled parses s, a Decimal value of a RowSource (plain decimal
// notation: an optional sign, digits, an optional point and digits), as its
// value times 10^scale, for drivers that take a DECIMAL as its unscaled
// integer. More fraction digits than scale, or a value beyond int64, is an
// error: the caller would lose digits without a word.
func DecimalUnscaled(s string, scale int) (int64, error) {
	neg := false
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	var v int64
	digits, frac, point := 0, 0, false
	for ; i < len(s); i++ {
		c := s[i]
		if c == '.' && !point {
			point = true
			continue
		}
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("decimal %q: %q is not a digit", s, c)
		}
		if point {
			frac++
			if frac > scale {
				return 0, fmt.Errorf("decimal %q: more than %d digits after the point", s, scale)
			}
		}
		if v > (math.MaxInt64-int64(c-'0'))/10 {
			return 0, fmt.Errorf("decimal %q: out of range", s)
		}
		v = v*10 + int64(c-'0')
		digits++
	}
	if digits == 0 {
		return 0, fmt.Errorf("decimal %q: no digits", s)
	}
	for ; frac < scale; frac++ {
		if v > math.MaxInt64/10 {
			return 0, fmt.Errorf("decimal %q: out of range", s)
		}
		v *= 10
	}
	if neg {
		v = -v
	}
	return v, nil
}

// DecimalBig is DecimalUnscaled for values of any size.
func DecimalBig(s string, scale int) (*big.Int, error) {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("decimal %q: not a number", s)
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
	if !r.IsInt() {
		return nil, fmt.Errorf("decimal %q: more than %d digits after the point", s, scale)
	}
	return r.Num(), nil
}

// ColumnsOf are the indexes of t's columns of type typ, for loaders that
// convert some types' values on their way to the driver.
func (t Table) ColumnsOf(typ ColumnType) []int {
	var out []int
	for i, c := range t.Columns {
		if c.Type == typ {
			out = append(out, i)
		}
	}
	return out
}
