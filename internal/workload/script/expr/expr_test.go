package expr

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// evalString parses and evaluates src for a client with a few variables,
// and returns the value as debug() prints it.
func evalString(t *testing.T, src string) (string, error) {
	t.Helper()
	e, err := Parse(src)
	if err != nil {
		return "", err
	}
	vars := &Variables{}
	mustSet(t, vars.SetValue("default_seed", Int(5432)))
	mustSet(t, vars.SetText("three", "3"))
	mustSet(t, vars.SetText("half", "0.5"))
	mustSet(t, vars.SetText("yes", "yes"))
	r := NewPRNG(1)
	v, err := e.Eval(&Context{Vars: vars, Rand: &r})
	if err != nil {
		return "", err
	}
	return v.debugText(), nil
}

// Expected values worked out by hand from pgbench's grammar and rules.
func TestPrecedenceAndAssociativity(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"1 + 2 * 3", "int 7"},
		{"(1 + 2) * 3", "int 9"},
		{"10 - 4 - 3", "int 3"},   // left
		{"100 / 10 / 5", "int 2"}, // left
		{"2 * 3 % 4", "int 2"},    // (2*3)%4
		{"- 2 * 3", "int -6"},     // unary binds tightest
		{"- - 3", "int 3"},        // right
		{"1 + 2 << 3", "int 24"},  // + above shifts
		{"1 << 2 + 3", "int 32"},  // 1 << 5
		{"1 | 2 & 3", "int 3"},    // same level, left: (1|2)&3
		{"6 & 3 # 1", "int 3"},    // (6&3)#1
		{"~1 + 2", "int -4"},      // ~ takes what binds tighter: ~(1+2)
		{"~1 & 2", "int 2"},       // ~ at the bitwise level: (~1)&2
		{"1 + 1 = 2", "boolean true"},
		{"1 = 2 IS FALSE", "boolean true"}, // (1=2) IS FALSE
		{"NOT 1 = 2", "boolean true"},      // NOT (1=2)
		{"NOT 1 ISNULL", "boolean true"},   // NOT (1 ISNULL)
		{"- 1 NOTNULL", "boolean true"},
		{"1 ISNULL ISNULL", "boolean false"}, // postfix operators chain
		{"true OR false AND false", "boolean true"},
		{"false AND true OR true", "boolean true"},
		{"NOT false AND false", "boolean false"}, // (NOT false) AND false
		{"2 > 1", "boolean true"},
		{"1 >= 2", "boolean false"},
		{"case when 1 > 2 then 10 when 2 > 1 then 20 else 30 end * 2", "int 40"},
		{"-9223372036854775808", "int -9223372036854775808"},
		{"- 9223372036854775808 + 1", "int -9223372036854775807"},
		{"abs(,-3)", "int 3"}, // pgbench's argument list may start with a comma
		{":three * :half", "double 1.5"},
		{":yes AND true", "boolean true"},
	} {
		got, err := evalString(t, c.src)
		if err != nil || got != c.want {
			t.Errorf("%s = %s, %v; want %s", c.src, got, err, c.want)
		}
	}
}

func TestKindsAndFunctions(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"7 / 2", "int 3"},
		{"-7 / 2", "int -3"}, // truncation toward zero
		{"-7 % 3", "int -1"},
		{"7 % -3", "int 1"},
		{"7.0 / 2", "double 3.5"},
		{"7.5 % 2", "int 0"}, // % always in integers: 8 % 2
		{"1 = 1.0", "boolean true"},
		{"1.0 / 0", "double Infinity"},
		{"0.0 / 0", "double NaN"},
		{"-9223372036854775808 % -1", "int 0"},
		{"1 << 64", "int 1"}, // count modulo 64
		{"1 << -1", "int -9223372036854775808"},
		{"-16 >> 2", "int -4"}, // arithmetic shift
		{"2.6 & 7", "int 3"},   // 2.6 rounds to 3
		{"NULL + 1", "null"},
		{"NULL AND false", "null"}, // NULL first: NULL, the right side unread
		{"false AND NULL", "boolean false"},
		{"true AND NULL", "null"},
		{"NULL IS NULL", "boolean true"},
		{"1 IS TRUE", "boolean false"}, // IS compares kinds
		{"CASE WHEN false THEN 1 END", "null"},
		{"CASE WHEN 0 THEN 1 WHEN 2.5 THEN 2 ELSE 3 END", "int 2"},
		{"CASE WHEN false THEN 1 / 0 ELSE 5 END", "int 5"}, // lazy
		{"abs(-5.5)", "double 5.5"},
		{"abs(-9223372036854775808)", "int -9223372036854775808"},
		{"least(3, 1.5, 2)", "double 1.5"},
		{"greatest(3, 1, 2)", "int 3"},
		{"least(0.0 / 0, 1)", "double 1"},      // NaN < 1 is false
		{"greatest(1, 0.0 / 0)", "double NaN"}, // 1 > NaN is false
		{"int(2.5)", "int 2"},                  // half to even
		{"int(3.5)", "int 4"},
		{"int(-2.5)", "int -2"},
		{"double(7)", "double 7"},
		{"sqrt(16)", "double 4"},
		{"pow(2, 10)", "double 1024"},
		{"power(-2, -3)", "double -0.125"},
		{"ln(1)", "double 0"},
		{"exp(0)", "double 1"},
		{"pi()", "double 3.14159265358979"},
		{"hash_fnv1a(0, 0)", "int -6284781860667377211"}, // FNV-1a of eight zero bytes
		{"hash(10, 5432)", "int -5817877081768721676"},   // from PostgreSQL's pgbench tests
		{"hash(10) = hash(10, :default_seed)", "boolean true"},
		{"permute(7, 1)", "int 0"},
		{"mod(-7, 3)", "int -1"},
		{"random(4, 4)", "int 4"},
		{"random_zipfian(5, 5, 2)", "int 5"},
	} {
		got, err := evalString(t, c.src)
		if err != nil || got != c.want {
			t.Errorf("%s = %s, %v; want %s", c.src, got, err, c.want)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"9223372036854775807 + 1", "bigint add out of range"},
		{"-9223372036854775808 - 1", "bigint sub out of range"},
		{"4611686018427387904 * 2", "bigint mul out of range"},
		{"-1 * -9223372036854775808", "bigint mul out of range"},
		{"-9223372036854775808 / -1", "bigint div out of range"},
		{"1 / 0", "division by zero"},
		{"1.5 % 0", "division by zero"},
		{"true + 1", "cannot coerce boolean to int"},
		{"NOT 0.0", "cannot coerce double to boolean"},
		{"ln(TRUE)", "cannot coerce boolean to double"},
		{"int(1E32)", "double to int overflow for 100000000000000005366162204393472.000000"},
		{"int(0.0 / 0)", "double to int overflow for NaN"},
		{"random(5, 3)", "empty range given to random"},
		{"random(-9223372036854775808, 9223372036854775807)", "random range is too large"},
		{"random_gaussian(0, 10, 1.0)", "gaussian parameter must be at least 2.000000 (not 1.000000)"},
		{"random_exponential(0, 10, 0.0)", "exponential parameter must be greater than zero (not 0.000000)"},
		{"random_zipfian(0, 10, 1)", "zipfian parameter must be in range [1.001, 1000] (not 1.000000)"},
		{"permute(0, 0)", "permute size parameter must be greater than zero"},
		{":nosuchvariable", `undefined variable "nosuchvariable"`},
		{"least(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)", "too many function arguments, maximum is 16"},
		{"1 AND true", "cannot coerce int to boolean"},
	} {
		_, err := evalString(t, c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.src, err, c.want)
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	for _, c := range []struct {
		src string
		pos int
		msg string
	}{
		{"1 +\n", 3, "syntax error"}, // at the newline
		{"1 +", 2, "syntax error"},   // at the last byte
		{"1 + foo(2)", 6, "unexpected function name (foo)"},
		{"abs(1, 2) + 3", 8, "unexpected number of arguments (abs)"},
		{"least()", 6, "at least one argument expected (least)"},
		{"99999999999999999999 + 3", 19, "bigint constant overflow (99999999999999999999)"},
		{"1e400", 4, "double constant overflow (1e400)"},
		{"1 < 2 < 3", 6, "syntax error"},             // comparisons do not associate
		{"1 @ 2 @ 3", 6, "unexpected character (@)"}, // the last bad character of the line
		{"foo(1) + 1e999", 13, "double constant overflow (1e999)"},
		{"9223372036854775808", 18, "syntax error"},
		{"5 - 9223372036854775808", 22, "syntax error"},
		{"1 IS 2", 5, "syntax error"},
		{"CASE WHEN 1 THEN 2", 17, "syntax error"},
		{"1 + \\\n 2 )", 9, "syntax error"}, // a continued line
	} {
		_, err := Parse(c.src)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset() != c.pos || se.Error() != c.msg {
			t.Errorf("Parse(%q) = %v (%+v), want %q at %d", c.src, err, se, c.msg, c.pos)
		}
	}
}

func TestValueText(t *testing.T) {
	for _, c := range []struct {
		v    Value
		want string
	}{
		{Null(), "NULL"}, {Bool(true), "true"}, {Bool(false), "false"}, {Int(-42), "-42"},
		{Double(1.5), "1.5"}, {Double(100), "100"}, {Double(1e15), "1e+15"}, {Double(1e14), "100000000000000"},
		{Double(0.0001), "0.0001"}, {Double(0.00001), "1e-05"}, {Double(1.0 / 3), "0.333333333333333"},
		{Double(123456789012345678), "1.23456789012346e+17"}, {Double(math.Copysign(0, -1)), "-0"}, {Double(1e100), "1e+100"},
		{Double(9.999999999999999), "10"}, {Double(999999999999999.9), "1e+15"}, {Double(5e-324), "4.94065645841247e-324"},
		{Double(math.Inf(1)), "Infinity"}, {Double(math.Inf(-1)), "-Infinity"}, {Double(math.NaN()), "NaN"},
	} {
		if got := c.v.Text(); got != c.want {
			t.Errorf("%#v.Text() = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestValueFromString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"null", "null"}, {"NuLL", "null"}, {"t", "boolean true"}, {"TRU", "boolean true"}, {"yes", "boolean true"},
		{"y", "boolean true"}, {"on", "boolean true"}, {"f", "boolean false"}, {"no", "boolean false"},
		{"n", "boolean false"}, {"off", "boolean false"}, {"of", "boolean false"}, {"42", "int 42"},
		{"  -42", "int -42"}, {"+3", "int 3"}, {"9223372036854775807", "int 9223372036854775807"},
		{"-9223372036854775808", "int -9223372036854775808"}, {"1.0", "double 1"}, {"-10.1", "double -10.1"},
		{"2.5e3", "double 2500"}, {"0x1p4", "double 16"}, {"0x10", "double 16"}, {".5", "double 0.5"},
		{"inf", "double Infinity"}, {"-Infinity", "double -Infinity"}, {"nan", "double NaN"}, {" 1.5", "double 1.5"},
	} {
		v, err := ValueFromString("x", c.in)
		if err != nil || v.debugText() != c.want {
			t.Errorf("ValueFromString(%q) = %s, %v; want %s", c.in, v.debugText(), err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"", `malformed variable "x" value: ""`},
		{"trueXXX", `malformed variable "x" value: "trueXXX"`},
		{"o", `malformed variable "x" value: "o"`},
		{"1.5 ", `malformed variable "x" value: "1.5 "`},
		{"12abc", `malformed variable "x" value: "12abc"`},
		{"99999999999999999999", `value "99999999999999999999" is out of range for type bigint`},
		{"-", `invalid input syntax for type bigint: "-"`},
		{"1e-400", `malformed variable "x" value: "1e-400"`}, // strtod's ERANGE
		{"1e-310", `malformed variable "x" value: "1e-310"`}, // a subnormal is ERANGE too
	} {
		if _, err := ValueFromString("x", c.in); err == nil || err.Error() != c.want {
			t.Errorf("ValueFromString(%q): error %v, want %q", c.in, err, c.want)
		}
	}
}

func TestVariables(t *testing.T) {
	var vs Variables
	if err := vs.SetText("1abc", "1"); !errors.Is(err, ErrInvalidName) {
		t.Errorf("SetText with a bad name: %v", err)
	}
	mustSet(t, vs.SetText("a", "2.50"))
	mustSet(t, vs.SetValue("b", Double(2.5)))
	if txt, _ := vs.Text("a"); txt != "2.50" {
		t.Errorf("text kept as given: %q", txt)
	}
	if txt, _ := vs.Text("b"); txt != "2.5" {
		t.Errorf("value formatted: %q", txt)
	}
	c := vs.Clone()
	mustSet(t, vs.SetValue("a", Int(1)))
	if txt, _ := c.Text("a"); txt != "2.50" {
		t.Errorf("a clone changed with its original: %q", txt)
	}
	if _, ok := vs.Lookup("zzz"); ok || vs.Len() != 2 || len(vs.Names()) != 2 {
		t.Errorf("lookup, Len or Names wrong: %v %v", vs.Len(), vs.Names())
	}
}

func TestDebugWritesPgbenchFormat(t *testing.T) {
	e, err := Parse("debug(1.5) + debug(NULL)")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := e.Eval(&Context{Debug: &buf, Script: 2, Command: 7}); err != nil {
		t.Fatal(err)
	}
	want := "debug(script=2,command=7): double 1.5\ndebug(script=2,command=7): null\n"
	if buf.String() != want {
		t.Errorf("debug wrote %q, want %q", buf.String(), want)
	}
}

func TestPermuteIsAPermutation(t *testing.T) {
	for _, size := range []int64{2, 3, 4, 5, 7, 16, 17, 100, 1000} {
		for _, seed := range []int64{0, 1, -1, 5432} {
			seen := make(map[int64]bool, size)
			for i := int64(0); i < size; i++ {
				p := Permute(i, size, seed)
				if p < 0 || p >= size || seen[p] {
					t.Fatalf("permute(%d, %d, %d) = %d: not a permutation", i, size, seed, p)
				}
				seen[p] = true
				if Permute(i+size, size, seed) != p || Permute(i-size, size, seed) != Permute(uint64mod(i-size, size), size, seed) {
					t.Fatalf("permute(%d, %d, %d): not taken modulo size", i, size, seed)
				}
			}
		}
	}
}

// uint64mod is pgbench's reduction of a negative input: as unsigned.
func uint64mod(v, size int64) int64 { return int64(uint64(v) % uint64(size)) }

func TestSplitmixSeeding(t *testing.T) {
	// splitmix64 from state 0 gives 0xe220a8397b1dcdaf then
	// 0x6e789e6aa1b965f4: the published reference outputs.
	r := NewPRNG(0)
	if r.s0 != 0xe220a8397b1dcdaf || r.s1 != 0x6e789e6aa1b965f4 {
		t.Errorf("seeded from 0: %#x %#x", r.s0, r.s1)
	}
	for i := 0; i < 1000; i++ {
		if d := r.Double(); d < 0 || d >= 1 {
			t.Fatalf("Double() = %v", d)
		}
		if v := r.Uint64Range(10, 12); v < 10 || v > 12 {
			t.Fatalf("Uint64Range(10, 12) = %v", v)
		}
	}
	if v := r.Uint64Range(5, 5); v != 5 {
		t.Errorf("empty range: %v", v)
	}
}

// TestEvalDoesNotAllocate: a client evaluates its \set commands once per
// transaction, so evaluation must cost no garbage (debug() aside).
func TestEvalDoesNotAllocate(t *testing.T) {
	e, err := Parse("random(1, 100000) + :x * 2 + hash(:x) % 7 + permute(:x, 1000) + random_gaussian(1, 10, 2.5)")
	if err != nil {
		t.Fatal(err)
	}
	vars := &Variables{}
	mustSet(t, vars.SetText("x", "12"))
	mustSet(t, vars.SetValue("default_seed", Int(1)))
	r := NewPRNG(1)
	ctx := &Context{Vars: vars, Rand: &r}
	if n := testing.AllocsPerRun(1000, func() { e.Eval(ctx) }); n != 0 {
		t.Errorf("Eval allocates %v times per call", n)
	}
}

func TestParseStopsAtTheLine(t *testing.T) {
	e, err := Parse("1 + \\\n 2\n\\set y 3\n")
	if err != nil {
		t.Fatal(err)
	}
	if e.String() != "1 + \\\n 2" {
		t.Errorf("String() = %q", e.String())
	}
	if v, err := e.Eval(&Context{}); err != nil || v.IntVal() != 3 {
		t.Errorf("Eval = %v, %v", v, err)
	}
}
