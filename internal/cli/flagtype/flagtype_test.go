package flagtype

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// typed is a value under test and a reading of what it holds.
type typed struct {
	v   pflag.Value
	get func() any
}

func list[T comparable](l *List[T]) func() typed {
	return func() typed { return typed{l, func() any { return l.Values }} }
}

func value[T any](v *Value[T]) func() typed {
	return func() typed { return typed{v, func() any { return v.V }} }
}

func TestSet(t *testing.T) {
	cases := []struct {
		name  string
		value func() typed
		in    string
		want  string // fmt.Sprint of the value; "" when an error is wanted
		err   string // a part of the error; "" when none is wanted
	}{
		// Lists of positive whole numbers.
		{"counts", list(Counts("10")), "10000,100000", "[10000 100000]", ""},
		{"counts k M _", list(Counts("10")), "10k, 2M,1_000", "[10000 2000000 1000]", ""},
		{"counts as given", list(Counts("10")), "3,1,2", "[3 1 2]", ""},
		{"counts sorted", list(Counts("10").Sorted(Ascending)), "3,1,2", "[1 2 3]", ""},
		{"counts descending", list(Counts("10").Sorted(Descending)), "3,1,2", "[3 2 1]", ""},
		{"counts not a number", list(Counts("10")), "10,x", "", `"x" is not a positive whole number (example: 10)`},
		{"counts zero", list(Counts("10")), "0", "", `"0" is not a positive whole number`},
		{"counts negative", list(Counts("10")), "-5", "", "not a positive whole number"},
		{"counts overflow", list(Counts("10")), "99999999999999M", "", "not a positive whole number"},
		{"counts twice", list(Counts("10")), "1000,1k", "", "1000 is given twice"},
		{"counts empty", list(Counts("10")), "", "", "give at least one value"},
		{"counts check", list(Counts("100").Check(func(n int64) error {
			if n%100 != 0 {
				return fmt.Errorf("size %d: not a multiple of 100", n)
			}
			return nil
		})), "200,250", "", "size 250: not a multiple of 100"},
		{"whole numbers zero", list(WholeNumbers("0,1")), "0,1,2", "[0 1 2]", ""},
		{"whole numbers negative", list(WholeNumbers("0,1")), "1,-2", "", `"-2" is not a whole number (0 or more)`},
		// One count.
		{"count", value(Count("10000", "size")), "1_000k", "1000000", ""},
		{"count list", value(Count("10000", "size")), "1000,2000", "", "give one size, not a list (example: 10000)"},
		{"count zero", value(Count("10000", "size")), "0", "", "not a positive whole number"},
		// Byte sizes.
		{"bytes MiB", value(Bytes("1MiB")), "256MiB", fmt.Sprint(256 << 20), ""},
		{"bytes GiB", value(Bytes("1MiB")), "4GiB", fmt.Sprint(4 << 30), ""},
		{"bytes G", value(Bytes("1MiB")), "1G", fmt.Sprint(1 << 30), ""},
		{"bytes k", value(Bytes("1MiB")), "512k", fmt.Sprint(512 << 10), ""},
		{"bytes K", value(Bytes("1MiB")), "4K", "4096", ""},
		{"bytes M", value(Bytes("1MiB")), "1M", fmt.Sprint(1 << 20), ""},
		{"bytes plain", value(Bytes("1MiB")), "1000000", "1000000", ""},
		{"bytes GB", value(Bytes("1MiB")), "2 GB", "2000000000", ""},
		{"bytes kB", value(Bytes("1MiB")), "8kB", "8000", ""},
		{"bytes underscores", value(Bytes("1MiB")), "1_048_576", fmt.Sprint(1 << 20), ""},
		{"bytes empty", value(Bytes("1MiB")), "", "", "not a size"},
		{"bytes unit only", value(Bytes("1MiB")), "MiB", "", "not a size"},
		{"bytes negative", value(Bytes("1MiB")), "-5MiB", "", "not a size"},
		{"bytes zero", value(Bytes("1MiB")), "0", "", "not a size"},
		{"bytes unknown unit", value(Bytes("1MiB")), "5 parsecs", "", "KiB, MiB, GiB, TiB (or k, K, M, G, T) are powers of 1024, kB, MB, GB, TB powers of 1000 (example: 1MiB)"},
		{"bytes fraction", value(Bytes("1MiB")), "1.5GiB", "", "not a size"},
		{"bytes overflow", value(Bytes("1MiB")), "99999999999TiB", "", "not a size"},
		{"bytes minimum", value(Bytes("1MiB").Check(AtLeastBytes(1<<20, "1MiB"))), "4KiB", "", "4096 bytes: give at least 1MiB"},
		{"byte sizes", list(ByteSizes("1MiB").Sorted(Descending)), "256kB,64MB,4MB", "[64000000 4000000 256000]", ""},
		{"byte sizes bad item", list(ByteSizes("1MiB")), "1MiB,lots", "", `"lots" is not a size`},
		{"byte sizes twice", list(ByteSizes("1MiB")), "1MiB,1024KiB", "", fmt.Sprintf("%d is given twice", 1<<20)},
		// Lists of choices.
		{"choices", list(Choices("a", "a", "b", "c")), "c,A", "[c a]", ""},
		{"choices allowed order", list(Choices("a", "a", "b", "c").Sorted(InAllowedOrder("a", "b", "c"))), "c,a", "[a c]", ""},
		{"choices unknown", list(Choices("a", "a", "b", "c")), "a,d", "", `"d" is an unknown value (choose from a, b, c)`},
		{"choices twice", list(Choices("a", "a", "b", "c")), "b,B", "", "b is given twice"},
		// One choice.
		{"choice", value(Choice("warm", "warm", "cold")), "COLD", "cold", ""},
		{"choice unknown", value(Choice("warm", "warm", "cold")), "hot", "", "give warm or cold (example: warm)"},
		{"choice three", value(Choice("warm", "warm", "cold", "both")), "x", "", "give warm, cold or both"},
		{"choice list", value(Choice("warm", "warm", "cold")), "warm,cold", "", "give warm or cold"},
		{"optional choice empty", value(OptionalChoice("", "procedure", "statements")), "", "", ""},
		{"optional choice", value(OptionalChoice("", "procedure", "statements")), "statements", "statements", ""},
		// Durations.
		{"duration", value(Duration(time.Second)), "1m30s", "1m30s", ""},
		{"duration zero", value(Duration(time.Second)), "0s", "", "must be positive (example: 1s)"},
		{"duration negative", value(Duration(time.Second)), "-1s", "", "must be positive"},
		{"duration no unit", value(Duration(time.Second)), "5", "", "not a duration: give a number with a unit"},
		{"non-negative duration zero", value(NonNegativeDuration(time.Minute)), "0", "0s", ""},
		{"non-negative duration negative", value(NonNegativeDuration(time.Minute)), "-1s", "", "must not be negative"},
		{"duration minimum", value(Duration(time.Second).Check(AtLeast(100*time.Millisecond, ""))), "50ms", "", "give at least 100ms"},
		// Seeds.
		{"seed", value(Seed("1")), "18446744073709551615", "18446744073709551615", ""},
		{"seed zero", value(Seed("1")), "0", "0", ""},
		{"seed negative", value(Seed("1")), "-1", "", "not a whole number from 0 to 18446744073709551615"},
		{"seed too large", value(Seed("1")), "18446744073709551616", "", "not a whole number"},
		{"seed word", value(Seed("1")), "x", "", "not a whole number"},
		// Whole numbers with bounds.
		{"int", value(Int(5)), "7", "7", ""},
		{"int underscores", value(Int(5)), "1_000", "1000", ""},
		{"int not a number", value(Int(5)), "x", "", "not a whole number (example: 5)"},
		{"positive int", value(Int(5).Check(AtLeast(1, "repetition"))), "0", "", "give at least 1 repetition (example: 5)"},
		{"non-negative int", value(Int(1).Check(AtLeast(0, ""))), "-1", "", "must not be negative"},
		{"non-negative int zero", value(Int(1).Check(AtLeast(0, ""))), "0", "0", ""},
		{"int at most", value(Int(0).Check(AtMost(256, ""))), "257", "", "give at most 256"},
		{"int64", value(Int64(1).Check(AtLeast[int64](1, ""))), "0", "", "give at least 1"},
		// Numbers.
		{"float", value(Float(0.95)), "0.9", "0.9", ""},
		{"float nan", value(Float(0.95)), "NaN", "", "not a number"},
		{"non-negative float", value(Float(0).Check(AtLeast(0.0, ""))), "-1", "", "must not be negative"},
		{"percentages", list(Percentages("50")), "50, 99.7", "[50 99.7]", ""},
		{"percentages 100", list(Percentages("50")), "50,100", "", `"100" is not a percentage between 0 and 100`},
		// A domain's own syntax.
		{"func", value(Func("a", func(s string) (int, error) {
			if s == "a" {
				return 1, nil
			}
			return 0, errors.New("give a")
		})), "b", "", "give a"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tv := c.value()
			before := tv.v.String()
			err := tv.v.Set(c.in)
			switch {
			case c.err == "" && err != nil:
				t.Fatalf("Set(%q): %v", c.in, err)
			case c.err != "" && err == nil:
				t.Fatalf("Set(%q) accepted: %v", c.in, tv.get())
			case c.err != "" && !strings.Contains(err.Error(), c.err):
				t.Fatalf("Set(%q): %q, want it to contain %q", c.in, err, c.err)
			case c.err != "":
				if tv.v.String() != before {
					t.Errorf("a refused Set(%q) changed the value from %q to %q", c.in, before, tv.v.String())
				}
				return
			}
			if got := fmt.Sprint(tv.get()); got != c.want && !(c.want == "" && c.in == "") {
				t.Errorf("Set(%q) = %s, want %s", c.in, got, c.want)
			}
		})
	}
}

// String is the value as written on the command line: the text as given
// for the types pflag keeps as strings, the canonical form for those it
// prints canonically (the manifest records what the untyped flag did).
func TestString(t *testing.T) {
	cases := []struct {
		name string
		v    pflag.Value
		in   string
		want string
		typ  string
	}{
		{"counts as written", Counts("10"), "1k,2_000", "1k,2_000", "string"},
		{"choices as written", Choices("a", "a", "b"), "B,a", "B,a", "string"},
		{"choice as written", Choice("a", "a", "b"), "B", "B", "string"},
		{"bytes as written", Bytes("1MiB"), "1G", "1G", "string"},
		{"seed as written", Seed("1"), "007", "007", "string"},
		{"count as written", Count("10", "size"), "10k", "10k", "string"},
		{"int canonical", Int(1), "05", "5", "int"},
		{"int64 canonical", Int64(1), "05", "5", "int64"},
		{"duration canonical", Duration(time.Second), "90s", "1m30s", "duration"},
		{"float canonical", Float(1), "0.50", "0.5", "float64"},
		{"optional unset", OptionalChoice("", "a"), "", "", "string"},
	}
	for _, c := range cases {
		if err := c.v.Set(c.in); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := c.v.String(); got != c.want || c.v.Type() != c.typ {
			t.Errorf("%s: String %q Type %q, want %q %q", c.name, got, c.v.Type(), c.want, c.typ)
		}
	}
	// Defaults print as pflag printed the untyped defaults.
	for v, want := range map[pflag.Value]string{Int(10): "10", Duration(2 * time.Minute): "2m0s", Float(0): "0", Counts("1,2,5,10"): "1,2,5,10", Counts(""): "", Seed("1"): "1"} {
		if v.String() != want {
			t.Errorf("default %q, want %q", v.String(), want)
		}
	}
}

// A default that its own checks refuse is a programming error.
func TestBadDefaultPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	Int(0).Check(AtLeast(1, ""))
}

func TestDescribe(t *testing.T) {
	err := Counts("10000,100000").Set("10,x")
	if got, want := Describe("sizes", "10,x", err), `--sizes "10,x": "x" is not a positive whole number (example: --sizes 10000,100000)`; got != want {
		t.Errorf("Describe: %s\nwant       %s", got, want)
	}
	if got, want := DescribeKey("run.yaml", "sizes", "10,x", err), `--config run.yaml: key sizes "10,x": "x" is not a positive whole number (example: sizes: 10000,100000)`; got != want {
		t.Errorf("DescribeKey: %s\nwant          %s", got, want)
	}
	if got, want := Describe("x", "y", errors.New("plain")), `--x "y": plain`; got != want {
		t.Errorf("Describe of another error: %s", got)
	}
}
