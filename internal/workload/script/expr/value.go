package expr

import (
	"fmt"
	"math"
	"strconv"
)

// Kind is a value's type: pgbench's NULL, boolean, int (int64) and double.
type Kind uint8

const (
	KindNull Kind = iota
	KindBool
	KindInt
	KindDouble
)

// String is the type's name as pgbench's messages spell it.
func (k Kind) String() string {
	switch k {
	case KindNull:
		return "null"
	case KindBool:
		return "boolean"
	case KindInt:
		return "int"
	case KindDouble:
		return "double"
	}
	return "none"
}

// Value is one expression value. The zero Value is NULL.
type Value struct {
	kind Kind
	b    bool
	i    int64
	f    float64
}

// Null is the NULL value.
func Null() Value { return Value{} }

// Bool is a boolean value.
func Bool(b bool) Value { return Value{kind: KindBool, b: b} }

// Int is an integer value.
func Int(i int64) Value { return Value{kind: KindInt, i: i} }

// Double is a double value.
func Double(f float64) Value { return Value{kind: KindDouble, f: f} }

// Kind is the value's type.
func (v Value) Kind() Kind { return v.kind }

// IsNull says whether the value is NULL.
func (v Value) IsNull() bool { return v.kind == KindNull }

// BoolVal, IntVal and DoubleVal read the value of that kind; for another
// kind they are zero (use AsInt or AsDouble to convert as pgbench does).
func (v Value) BoolVal() bool { return v.b }

// IntVal: see BoolVal.
func (v Value) IntVal() int64 { return v.i }

// DoubleVal: see BoolVal.
func (v Value) DoubleVal() float64 { return v.f }

// Text is the value as pgbench substitutes it into SQL and passes it as a
// query parameter: NULL, true/false, the integer in decimal, or the double
// with 15 significant digits (C's %.15g).
func (v Value) Text() string {
	switch v.kind {
	case KindBool:
		if v.b {
			return "true"
		}
		return "false"
	case KindInt:
		return strconv.FormatInt(v.i, 10)
	case KindDouble:
		return formatG15(v.f)
	}
	return "NULL"
}

// debugText is the value as pgbench's debug() prints it.
func (v Value) debugText() string {
	switch v.kind {
	case KindBool:
		return "boolean " + v.Text()
	case KindInt, KindDouble:
		return v.kind.String() + " " + v.Text()
	}
	return "null"
}

// String is the value's Text, so values print as they would into SQL.
func (v Value) String() string { return v.Text() }

// Truth is the value as a condition of \if, \elif and CASE WHEN: NULL and
// zero are false, any other number is true.
func (v Value) Truth() bool {
	switch v.kind {
	case KindBool:
		return v.b
	case KindInt:
		return v.i != 0
	case KindDouble:
		return v.f != 0
	}
	return false
}

// AsInt is the value as an integer, as pgbench coerces it: a double is
// rounded half to even and must fit in int64; NULL and booleans do not
// coerce.
func (v Value) AsInt() (int64, error) {
	switch v.kind {
	case KindInt:
		return v.i, nil
	case KindDouble:
		d := math.RoundToEven(v.f)
		// The largest double below 2^63 is the largest that fits; -2^63 fits.
		if math.IsNaN(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0 {
			return 0, fmt.Errorf("double to int overflow for %s", formatF6(d))
		}
		return int64(d), nil
	}
	return 0, fmt.Errorf("cannot coerce %s to int", v.kind)
}

// AsDouble is the value as a double; NULL and booleans do not coerce.
func (v Value) AsDouble() (float64, error) {
	switch v.kind {
	case KindDouble:
		return v.f, nil
	case KindInt:
		return float64(v.i), nil
	}
	return 0, fmt.Errorf("cannot coerce %s to double", v.kind)
}

// AsBool is the value as a boolean: only booleans coerce (AND, OR, NOT).
func (v Value) AsBool() (bool, error) {
	if v.kind == KindBool {
		return v.b, nil
	}
	return false, fmt.Errorf("cannot coerce %s to boolean", v.kind)
}
