// Package flagtype holds dbgauge's typed flag values: pflag.Values that
// parse and validate themselves in Set, so that a bad value is refused
// where it is read (on the command line or from a --config file) with a
// reason and an example of a value that would do, and a command's plan()
// receives values that are already whole numbers, sizes, choices and
// durations.
//
// Every value's String() is the value as it would be written on the
// command line: the text as given for lists, sizes, choices and seeds
// ("1k,2_000" stays "1k,2_000"), the canonical form for the types pflag
// itself prints that way (ints, durations, floats). The manifest records
// the effective flags through String(), so a typed flag records what the
// untyped one did. Type() is the name pflag's help shows, the same as the
// untyped flag's ("string", "int", "duration", "float64").
package flagtype

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Error is a refused value: why, and a value that would have done. Its
// Example holds the value alone; Describe and DescribeKey put the flag's
// or the config key's name in front of it.
type Error struct {
	Reason  string // e.g. `"x" is not a positive whole number`
	Example string // e.g. "10000,100000"; "" when there is none
}

func (e *Error) Error() string {
	if e.Example == "" {
		return e.Reason
	}
	return e.Reason + " (example: " + e.Example + ")"
}

// Describe is the one line for a refused command-line value:
// `--sizes "10,x": "x" is not a positive whole number (example: --sizes 10000,100000)`.
func Describe(flag, value string, err error) string {
	var fe *Error
	if errors.As(err, &fe) {
		s := fmt.Sprintf("--%s %q: %s", flag, value, fe.Reason)
		if fe.Example != "" {
			s += fmt.Sprintf(" (example: --%s %s)", flag, fe.Example)
		}
		return s
	}
	return fmt.Sprintf("--%s %q: %v", flag, value, err)
}

// DescribeKey is the one line for a refused value in a config file:
// `--config run.yaml: key sizes "10,x": "x" is not a positive whole number (example: sizes: 10000,100000)`.
func DescribeKey(file, key, value string, err error) string {
	var fe *Error
	if errors.As(err, &fe) {
		s := fmt.Sprintf("--config %s: key %s %q: %s", file, key, value, fe.Reason)
		if fe.Example != "" {
			s += fmt.Sprintf(" (example: %s: %s)", key, fe.Example)
		}
		return s
	}
	return fmt.Sprintf("--config %s: key %s %q: %v", file, key, value, err)
}

// Exampler is a value that knows an example of itself (for "--x needs a
// value (example: --x 10)").
type Exampler interface{ Example() string }

func refuse(reason, example string) error { return &Error{Reason: reason, Example: example} }

// --- single values ---

// Value is one typed flag value: V is the value, valid once Set (or the
// constructor with the default) returned.
type Value[T any] struct {
	V        T
	text     string
	typ      string
	parse    func(string) (T, error)
	format   func(T) string // nil: String() is the text as given
	checks   []func(T) error
	example  string
	optional bool // "" is accepted: unset, V is T's zero value
	allowed  []string
}

// Set parses s, runs the checks and keeps the value; on error the value
// is unchanged.
func (v *Value[T]) Set(s string) error {
	if s == "" && v.optional {
		var zero T
		v.V, v.text = zero, ""
		return nil
	}
	x, err := v.parse(s)
	if err != nil {
		var fe *Error
		if errors.As(err, &fe) && fe.Example == "" {
			fe.Example = v.example
		}
		return err
	}
	for _, c := range v.checks {
		if err := c(x); err != nil {
			return err
		}
	}
	v.V, v.text = x, s
	return nil
}

// String is the value as written on the command line.
func (v *Value[T]) String() string {
	if v.format == nil || (v.optional && v.text == "") {
		return v.text
	}
	return v.format(v.V)
}

// Type is the type name pflag's help shows.
func (v *Value[T]) Type() string { return v.typ }

// Example is a value that would be accepted (the default unless set).
func (v *Value[T]) Example() string { return v.example }

// IsSet tells whether an optional value was given ("" is unset).
func (v *Value[T]) IsSet() bool { return v.text != "" }

// Allowed is the values a Choice accepts (nil for any other value): the
// web interface's forms offer them in a menu.
func (v *Value[T]) Allowed() []string { return v.allowed }

// Check adds a test the value must pass; its error is the reason given
// (an *Error gets the example). The current value is checked again.
func (v *Value[T]) Check(c func(T) error) *Value[T] {
	v.checks = append(v.checks, func(x T) error {
		err := c(x)
		var fe *Error
		if errors.As(err, &fe) && fe.Example == "" {
			fe.Example = v.example
		}
		return err
	})
	return v.reset()
}

// WithExample sets the example of the refusals (default: the default).
func (v *Value[T]) WithExample(s string) *Value[T] { v.example = s; return v }

// reset applies the current text again (the default after a Check was
// added): a default that fails its own checks is a programming error.
func (v *Value[T]) reset() *Value[T] {
	if v.text == "" && v.optional {
		return v
	}
	if err := v.Set(v.text); err != nil {
		panic(fmt.Sprintf("flagtype: default %q: %v", v.text, err))
	}
	return v
}

func newValue[T any](def, typ string, parse func(string) (T, error), format func(T) string) *Value[T] {
	v := &Value[T]{text: def, typ: typ, parse: parse, format: format, example: def}
	return v.reset()
}

// Int is a whole number (pflag's int: Type "int", String canonical).
// Bounds are added with AtLeast and AtMost.
func Int(def int) *Value[int] {
	return newValue(strconv.Itoa(def), "int", func(s string) (int, error) {
		n, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(s), "_", ""))
		if err != nil {
			return 0, refuse("not a whole number", "")
		}
		return n, nil
	}, strconv.Itoa)
}

// Int64 is Int for int64 values (pflag's int64).
func Int64(def int64) *Value[int64] {
	return newValue(strconv.FormatInt(def, 10), "int64", func(s string) (int64, error) {
		n, err := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(s), "_", ""), 10, 64)
		if err != nil {
			return 0, refuse("not a whole number", "")
		}
		return n, nil
	}, func(n int64) string { return strconv.FormatInt(n, 10) })
}

// AtLeast refuses values below min: "must not be negative" for 0, else
// "give at least MIN WHAT" (what says of what, or why: "pairs (the ratio
// interval needs them)").
func AtLeast[T cmp.Ordered](min T, what string) func(T) error {
	return func(x T) error {
		if x >= min {
			return nil
		}
		var zero T
		if min == zero && what == "" {
			return refuse("must not be negative", "")
		}
		return refuse(strings.TrimSpace(fmt.Sprintf("give at least %v %s", min, what)), "")
	}
}

// AtMost refuses values above max.
func AtMost[T cmp.Ordered](max T, what string) func(T) error {
	return func(x T) error {
		if x <= max {
			return nil
		}
		return refuse(strings.TrimSpace(fmt.Sprintf("give at most %v %s", max, what)), "")
	}
}

// Float is a number (pflag's float64).
func Float(def float64) *Value[float64] {
	format := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	return newValue(format(def), "float64", func(s string) (float64, error) {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, refuse("not a number", "")
		}
		return f, nil
	}, format)
}

// Duration is a time span such as 60s or 1m30s (pflag's duration). By
// default it must be positive; NonNegative lets 0 through (meaning none).
func Duration(def time.Duration) *Value[time.Duration] {
	return newValue(def.String(), "duration", parseDuration, time.Duration.String).Check(Positive)
}

// NonNegativeDuration is a Duration for which 0 means "none".
func NonNegativeDuration(def time.Duration) *Value[time.Duration] {
	return newValue(def.String(), "duration", parseDuration, time.Duration.String).Check(AtLeast[time.Duration](0, ""))
}

func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, refuse("not a duration: give a number with a unit, ns, us, ms, s, m or h", "")
	}
	return d, nil
}

// Positive refuses zero and negative durations.
func Positive(d time.Duration) error {
	if d <= 0 {
		return refuse("must be positive", "")
	}
	return nil
}

// Seed is a seed: a whole number from 0 to 2^64-1, kept as written.
func Seed(def string) *Value[uint64] {
	return newValue(def, "string", func(s string) (uint64, error) {
		v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return 0, refuse("not a whole number from 0 to 18446744073709551615", "")
		}
		return v, nil
	}, nil)
}

// Choice is one of allowed (compared in lower case), kept as written.
// V is the allowed spelling.
func Choice(def string, allowed ...string) *Value[string] { return choice(def, false, allowed) }

// OptionalChoice is a Choice that may be left empty ("": the default the
// run picks, e.g. the engine's).
func OptionalChoice(def string, allowed ...string) *Value[string] { return choice(def, true, allowed) }

func choice(def string, optional bool, allowed []string) *Value[string] {
	v := &Value[string]{text: def, typ: "string", example: cmp.Or(def, allowed[0]), optional: optional, allowed: allowed}
	v.parse = func(s string) (string, error) {
		p := strings.ToLower(strings.TrimSpace(s))
		if slices.Contains(allowed, p) {
			return p, nil
		}
		return "", refuse("give "+orList(allowed), "")
	}
	return v.reset()
}

// Count is one positive whole number with k (1,000) and M (1,000,000)
// suffixes and _ separators allowed, kept as written; noun names it in
// "give one NOUN, not a list".
func Count(def, noun string) *Value[int64] {
	v := &Value[int64]{text: def, typ: "string", example: def, optional: def == ""}
	v.parse = func(s string) (int64, error) {
		if strings.Contains(s, ",") {
			return 0, refuse("give one "+noun+", not a list", "")
		}
		return parseCount(s, false)
	}
	if v.example == "" {
		v.example = "10000"
	}
	return v.reset()
}

// Bytes is a size in bytes, kept as written: a whole number of bytes or
// one with a unit, KiB MiB GiB TiB (or K M G T, as dd reads them) powers
// of 1024, kB MB GB TB powers of 1000.
func Bytes(def string) *Value[int64] {
	return newValue(def, "string", func(s string) (int64, error) { return parseBytes(s, false) }, nil)
}

// AtLeastBytes refuses sizes below min, written as text (e.g. "1MiB").
func AtLeastBytes(min int64, text string) func(int64) error {
	return func(n int64) error {
		if n < min {
			return refuse(fmt.Sprintf("%d bytes: give at least %s", n, text), "")
		}
		return nil
	}
}

// Func is a value read by parse, kept as written: for a domain's own
// syntax (query lists, CPU lists). parse's error is the reason.
func Func[T any](def string, parse func(string) (T, error)) *Value[T] {
	v := &Value[T]{text: def, typ: "string", parse: parse, example: def, optional: def == ""}
	return v.reset()
}

// --- lists ---

// List is a comma-separated list of distinct items, kept as written;
// Values holds the items in the order given, or sorted.
type List[T comparable] struct {
	Values  []T
	text    string
	item    func(string) (T, error)
	checks  []func(T) error
	order   func(a, b T) int
	example string
	allowed []string
}

// Set reads the whole list again (a flag given twice: the last wins).
func (l *List[T]) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return refuse("give at least one value", l.example)
	}
	var out []T
	for _, part := range strings.Split(s, ",") {
		x, err := l.item(strings.TrimSpace(part))
		if err != nil {
			var fe *Error
			if errors.As(err, &fe) {
				return refuse(fmt.Sprintf("%q %s", part, fe.Reason), l.example)
			}
			return err
		}
		for _, c := range l.checks {
			if err := c(x); err != nil {
				var fe *Error
				if errors.As(err, &fe) {
					return refuse(fmt.Sprintf("%q: %s", strings.TrimSpace(part), fe.Reason), l.example)
				}
				return err
			}
		}
		if slices.Contains(out, x) {
			return refuse(fmt.Sprintf("%v is given twice", x), "")
		}
		out = append(out, x)
	}
	if l.order != nil {
		slices.SortFunc(out, l.order)
	}
	l.Values, l.text = out, s
	return nil
}

// String is the list as written.
func (l *List[T]) String() string { return l.text }

// Type is "string": the help shows these flags as the untyped ones did.
func (l *List[T]) Type() string { return "string" }

// Example is a list that would be accepted.
func (l *List[T]) Example() string { return l.example }

// Allowed is the items a list of Choices accepts (nil for other lists).
func (l *List[T]) Allowed() []string { return l.allowed }

// IsList tells the web interface's forms that the value is a
// comma-separated list (its Type is "string", as pflag's help shows it).
func (l *List[T]) IsList() bool { return true }

// IsSet tells whether the list holds anything (a list without default
// that was not given is empty).
func (l *List[T]) IsSet() bool { return l.text != "" }

// Sorted orders Values by cmp (whatever order they were given in).
func (l *List[T]) Sorted(cmp func(a, b T) int) *List[T] { l.order = cmp; return l.reset() }

// Check adds a test every item must pass; an *Error's reason is given
// after the item, another error as it is.
func (l *List[T]) Check(c func(T) error) *List[T] {
	l.checks = append(l.checks, c)
	return l.reset()
}

// WithExample sets the example of the refusals (default: the default).
func (l *List[T]) WithExample(s string) *List[T] { l.example = s; return l }

func (l *List[T]) reset() *List[T] {
	if l.text == "" {
		return l
	}
	if err := l.Set(l.text); err != nil {
		panic(fmt.Sprintf("flagtype: default %q: %v", l.text, err))
	}
	return l
}

func newList[T comparable](def string, item func(string) (T, error), example string) *List[T] {
	l := &List[T]{text: def, item: item, example: cmp.Or(def, example)}
	return l.reset()
}

// Counts is a list of positive whole numbers, k (1,000) and M (1,000,000)
// suffixes and _ separators allowed: "10000,100k,1_000_000".
func Counts(def string) *List[int64] {
	return newList(def, func(s string) (int64, error) { return parseCount(s, false) }, "10000,100000")
}

// WholeNumbers is Counts with 0 allowed: "0,1,2,4".
func WholeNumbers(def string) *List[int64] {
	return newList(def, func(s string) (int64, error) { return parseCount(s, true) }, "0,1,2,4")
}

// Ascending and Descending are orders for Sorted.
func Ascending[T cmp.Ordered](a, b T) int  { return cmp.Compare(a, b) }
func Descending[T cmp.Ordered](a, b T) int { return cmp.Compare(b, a) }

// ByteSizes is a list of sizes in bytes (units as Bytes).
func ByteSizes(def string) *List[int64] {
	return newList(def, func(s string) (int64, error) { return parseBytes(s, true) }, "64MiB,1MiB")
}

// Percentages is a list of numbers strictly between 0 and 100.
func Percentages(def string) *List[float64] {
	return newList(def, func(s string) (float64, error) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !(v > 0 && v < 100) {
			return 0, refuse("is not a percentage between 0 and 100", "")
		}
		return v, nil
	}, "50,95,99")
}

// Choices is a list of items from allowed (compared in lower case), in
// the order given; InAllowedOrder sorts them as allowed lists them.
func Choices(def string, allowed ...string) *List[string] {
	l := newList(def, func(s string) (string, error) {
		p := strings.ToLower(s)
		if slices.Contains(allowed, p) {
			return p, nil
		}
		return "", refuse("is an unknown value (choose from "+strings.Join(allowed, ", ")+")", "")
	}, strings.Join(allowed, ","))
	l.allowed = allowed
	return l
}

// InAllowedOrder is the order of Choices as allowed lists them.
func InAllowedOrder(allowed ...string) func(a, b string) int {
	return func(a, b string) int { return slices.Index(allowed, a) - slices.Index(allowed, b) }
}

// --- parsing ---

// parseCount reads one whole number with k/M suffix and _ separators; the
// reason does not repeat the text (a list puts the item in front).
func parseCount(s string, zero bool) (int64, error) {
	p := strings.ReplaceAll(strings.TrimSpace(s), "_", "")
	mult := int64(1)
	switch {
	case strings.HasSuffix(p, "k"), strings.HasSuffix(p, "K"):
		mult, p = 1_000, p[:len(p)-1]
	case strings.HasSuffix(p, "M"), strings.HasSuffix(p, "m"):
		mult, p = 1_000_000, p[:len(p)-1]
	}
	v, err := strconv.ParseInt(p, 10, 64)
	if err != nil || v < 0 || (v == 0 && !zero) || v > math.MaxInt64/mult {
		if zero {
			return 0, refuse("is not a whole number (0 or more)", "")
		}
		return 0, refuse("is not a positive whole number", "")
	}
	return v * mult, nil
}

var byteUnits = map[string]int64{
	"": 1, "B": 1,
	"k": 1 << 10, "K": 1 << 10, "KiB": 1 << 10, "M": 1 << 20, "MiB": 1 << 20, "G": 1 << 30, "GiB": 1 << 30, "T": 1 << 40, "TiB": 1 << 40,
	"kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
}

const byteUnitsText = "a whole number of bytes, or with a unit: KiB, MiB, GiB, TiB (or k, K, M, G, T) are powers of 1024, kB, MB, GB, TB powers of 1000"

func parseBytes(s string, item bool) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '_' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.TrimSpace(t[i:])
	}
	mult := byteUnits[unit]
	v, err := strconv.ParseInt(strings.ReplaceAll(num, "_", ""), 10, 64)
	if err != nil || mult == 0 || v <= 0 || v > math.MaxInt64/mult {
		if item {
			return 0, refuse("is not a size: give "+byteUnitsText, "")
		}
		return 0, refuse("not a size: give "+byteUnitsText, "")
	}
	return v * mult, nil
}

// orList writes "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}
