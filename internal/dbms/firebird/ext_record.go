package firebird

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// The record of an external-table load: each column is one or two
// fixed-width text fields of CHARACTER SET NONE (one byte per character),
// and the INSERT ... SELECT turns them into the column's value.
//
// An external file has no NULL, so NULL is a blank field: numbers, decimals
// and times are never blank, and NULLIF(field, '') (a blank CHAR equals '')
// gives NULL before the CAST. Text can be blank, so Char and Varchar carry
// their length in a field before the text, blank for NULL, and the SELECT
// takes SUBSTRING(text FROM 1 FOR length): that also keeps a Varchar's
// trailing blanks, which the padding of a fixed field would otherwise
// swallow. The costs are a few bytes a row and a function per value, against
// a fallback to the wire paths a quarter as fast (load.go); measured lost in
// the noise (200,000 rows of 4 x (INTEGER, BIGINT, CHAR(20)), four rounds
// on a busy 2-core machine: 51,000-95,000 rows/s, 43,000-73,000 with the
// plain CAST of each field before).

// extTimeLayout is a Timestamp's field: Firebird keeps 1/10,000 s.
const extTimeLayout = "2006-01-02 15:04:05.0000"

// extWidth is the width of the value field of a column (text: without its
// length field).
func extWidth(c dbms.Column) int {
	switch c.Type {
	case dbms.Char, dbms.Varchar:
		return c.Len
	case dbms.BigInt:
		return 20
	case dbms.Decimal:
		return c.Len + 3 // a sign, a leading 0 when Len == Scale, the point
	case dbms.Timestamp:
		return len(extTimeLayout)
	default:
		return 11
	}
}

// lenWidth is the width of a text column's length field.
func lenWidth(c dbms.Column) int { return len(strconv.Itoa(c.Len)) }

// isText says the column has a length field.
func isText(c dbms.Column) bool { return c.Type == dbms.Char || c.Type == dbms.Varchar }

// recordLen is the bytes of one record of cols, its newline included.
func recordLen(cols []dbms.Column) int {
	n := 1
	for _, c := range cols {
		n += extWidth(c)
		if isText(c) {
			n += lenWidth(c)
		}
	}
	return n
}

// extFields are the external table's field definitions of column i and the
// expression that makes the column's value of them.
func extFields(c dbms.Column, i int) ([]string, string) {
	val := fmt.Sprintf("c%d CHAR(%d) CHARACTER SET NONE", i, extWidth(c))
	if isText(c) {
		l := fmt.Sprintf("l%d CHAR(%d) CHARACTER SET NONE", i, lenWidth(c))
		return []string{l, val}, fmt.Sprintf("SUBSTRING(c%d FROM 1 FOR CAST(NULLIF(l%d, '') AS INTEGER))", i, i)
	}
	return []string{val}, fmt.Sprintf("CAST(NULLIF(c%d, '') AS %s)", i, dbms.StandardType(c))
}

var errTooLong = errors.New("value longer than its column")

// appendRecord renders one row as a fixed-width record.
func appendRecord(b []byte, cols []dbms.Column, row []any) ([]byte, error) {
	for i, c := range cols {
		v := row[i]
		if isText(c) {
			s, isString := v.(string)
			if !isString && v != nil {
				return nil, fmt.Errorf("column %s: %T for a text column", c.Name, v)
			}
			if len(s) > c.Len {
				return nil, fmt.Errorf("column %s: %w (%d > %d bytes)", c.Name, errTooLong, len(s), c.Len)
			}
			start := len(b)
			if v != nil {
				b = strconv.AppendInt(b, int64(len(s)), 10)
			}
			b = pad(b, start, lenWidth(c))
			b = pad(append(b, s...), start+lenWidth(c), c.Len)
			continue
		}
		start := len(b)
		switch x := v.(type) {
		case nil:
		case int64:
			b = strconv.AppendInt(b, x, 10)
		case int:
			b = strconv.AppendInt(b, int64(x), 10)
		case string:
			if c.Type != dbms.Decimal {
				return nil, fmt.Errorf("column %s: string for a %s column", c.Name, dbms.StandardType(c))
			}
			b = append(b, x...)
		case time.Time:
			b = x.UTC().AppendFormat(b, extTimeLayout)
		default:
			return nil, fmt.Errorf("column %s: unsupported value %T", c.Name, v)
		}
		if got, w := len(b)-start, extWidth(c); got > w {
			return nil, fmt.Errorf("column %s: %w (%d > %d bytes)", c.Name, errTooLong, got, w)
		}
		b = pad(b, start, extWidth(c))
	}
	return append(b, '\n'), nil
}

// pad fills the field that began at start with blanks to width w:
// left-aligned, as CAST ignores the blanks after a number.
func pad(b []byte, start, w int) []byte {
	for len(b) < start+w {
		b = append(b, ' ')
	}
	return b
}
