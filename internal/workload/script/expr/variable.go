package expr

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// ValueFromString is how pgbench reads a variable given as text (-D,
// \gset, \aset, \setshell) when an expression uses it: "null" (any case) is
// NULL; a prefix of true or yes, or on, is true; a prefix of false or no,
// or off or of, is false; an integer is an int (an error when it does not
// fit in int64); anything strtod takes whole is a double. name is for the
// error message.
func ValueFromString(name, s string) (Value, error) {
	if s == "" {
		return Value{}, fmt.Errorf("malformed variable \"%s\" value: \"%s\"", name, s)
	}
	switch {
	case strings.EqualFold(s, "null"):
		return Null(), nil
	case isPrefixFold(s, "true") || isPrefixFold(s, "yes") || strings.EqualFold(s, "on"):
		return Bool(true), nil
	case isPrefixFold(s, "false") || isPrefixFold(s, "no") || strings.EqualFold(s, "off") || strings.EqualFold(s, "of"):
		return Bool(false), nil
	case isAnInt(s):
		i, err := parseInt64(s)
		if errors.Is(err, errRange) {
			return Value{}, fmt.Errorf("value \"%s\" is out of range for type bigint", s)
		}
		if err != nil {
			// A lone sign or only spaces pass pgbench's integer test.
			return Value{}, fmt.Errorf("invalid input syntax for type bigint: \"%s\"", s)
		}
		return Int(i), nil
	}
	f, err := parseDouble(s)
	if err != nil {
		return Value{}, fmt.Errorf("malformed variable \"%s\" value: \"%s\"", name, s)
	}
	return Double(f), nil
}

// isPrefixFold: s is a non-empty prefix of word, ignoring ASCII case.
func isPrefixFold(s, word string) bool {
	return len(s) <= len(word) && strings.EqualFold(s, word[:len(s)])
}

// ValidName says whether name may be a variable's name: ASCII letters,
// digits, underscores and any non-ASCII byte, not starting with a digit.
func ValidName(name string) bool {
	if name == "" || isDigit(name[0]) {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return false
		}
	}
	return true
}

func isNameByte(c byte) bool {
	return c >= 0x80 || c == '_' || isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

// Variable is one client variable as pgbench keeps it: the text it was given
// or the value \set computed, each converted to the other on first need and
// kept, so a variable set from text is parsed once and a computed double is
// formatted once.
type Variable struct {
	text    string
	hasText bool
	val     Value
	hasVal  bool
	// computed: the value came from SetValue, the text (if any) from it.
	computed bool
	// arg is IntArg's interface value, made on first need.
	arg any
}

// Text is the variable as substituted into SQL.
func (v *Variable) Text() string {
	if !v.hasText {
		v.text, v.hasText = v.val.Text(), true
	}
	return v.text
}

// Int is the variable's value when it is an integer computed by an
// expression (\set, the automatic variables), not text read into one: a
// runtime binds it as a number, where text (say '007' from \gset) must
// stay text.
func (v *Variable) Int() (int64, bool) {
	if v.computed && v.val.kind == KindInt {
		return v.val.i, true
	}
	return 0, false
}

// IntArg is Int's integer as an interface value (an argument a runtime
// binds), made once per value: a variable is bound to several statements
// of a transaction, and each boxing of an int64 would allocate.
func (v *Variable) IntArg() (any, bool) {
	if !v.computed || v.val.kind != KindInt {
		return nil, false
	}
	if v.arg == nil {
		v.arg = v.val.i
	}
	return v.arg, true
}

// Value is the variable as an expression sees it; name is for the error.
func (v *Variable) Value(name string) (Value, error) {
	if !v.hasVal {
		val, err := ValueFromString(name, v.text)
		if err != nil {
			return Value{}, err
		}
		v.val, v.hasVal = val, true
	}
	return v.val, nil
}

// VarLookup finds a client's variable by name; ok is false when the
// variable is not defined.
type VarLookup interface {
	Lookup(name string) (v *Variable, ok bool)
}

// Variables is a client's set of variables. The zero value is empty and
// ready. It is not safe for concurrent use: each client has its own.
type Variables struct {
	m map[string]*Variable
	// names and vars are the variables in the order they were made:
	// CopyTo between two sets of the same names (a transaction's saved
	// start and the live set) copies them in order, without a map look-up.
	names []string
	vars  []*Variable
	// gen counts the changes to the set of names (Generation).
	gen uint64
}

// Generation changes whenever a variable is made or dropped, and only
// then: a *Variable Lookup returned stays the variable of its name while
// the generation is the same, so a caller may keep it instead of looking
// the name up again.
func (vs *Variables) Generation() uint64 { return vs.gen }

var _ VarLookup = (*Variables)(nil)

// ErrInvalidName is wrapped by SetText and SetValue for a name ValidName
// refuses.
var ErrInvalidName = errors.New("invalid variable name")

// Lookup implements VarLookup.
func (vs *Variables) Lookup(name string) (*Variable, bool) {
	v, ok := vs.m[name]
	return v, ok
}

// SetText gives the variable a text value (-D, \gset, \aset, \setshell).
func (vs *Variables) SetText(name, text string) error {
	v, err := vs.slot(name)
	if err != nil {
		return err
	}
	*v = Variable{text: text, hasText: true}
	return nil
}

// SetValue gives the variable a computed value (\set, the automatic
// variables).
func (vs *Variables) SetValue(name string, val Value) error {
	v, err := vs.slot(name)
	if err != nil {
		return err
	}
	v.SetValue(val)
	return nil
}

// SetValue gives v a computed value, as Variables.SetValue does for its
// name.
func (v *Variable) SetValue(val Value) {
	*v = Variable{val: val, hasVal: true, computed: true}
}

// slot finds or creates a variable; only a new name is checked, as pgbench
// checks it.
func (vs *Variables) slot(name string) (*Variable, error) {
	if v, ok := vs.m[name]; ok {
		return v, nil
	}
	if !ValidName(name) {
		return nil, fmt.Errorf("%w: \"%s\"", ErrInvalidName, name)
	}
	if vs.m == nil {
		vs.m = make(map[string]*Variable)
	}
	v := new(Variable)
	vs.m[name] = v
	vs.names = append(vs.names, name)
	vs.vars = append(vs.vars, v)
	vs.gen++
	return v, nil
}

// Text is a variable's SQL text; ok is false when it is not defined.
func (vs *Variables) Text(name string) (text string, ok bool) {
	v, ok := vs.m[name]
	if !ok {
		return "", false
	}
	return v.Text(), true
}

// Len is the number of variables.
func (vs *Variables) Len() int { return len(vs.m) }

// Names are the variables' names, sorted.
func (vs *Variables) Names() []string {
	names := make([]string, 0, len(vs.m))
	for n := range vs.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Clone copies the variables, as a retried transaction needs the ones it
// started with and each client starts from the -D values.
func (vs *Variables) Clone() *Variables {
	c := &Variables{}
	vs.CopyTo(c)
	return c
}

// CopyTo makes dst hold the same variables as vs, reusing dst's storage:
// a runtime saves a client's variables at each transaction's start (and
// restores them for a retry) without allocating once the names are known,
// and, when dst has the same names in the same order (it was last copied
// from vs, or vs from it, and neither gained one since), without a map
// look-up.
func (vs *Variables) CopyTo(dst *Variables) {
	// Strings of sets copied from one another share their bytes, so each
	// comparison is short.
	if slices.Equal(vs.names, dst.names) {
		for i, v := range vs.vars {
			*dst.vars[i] = *v
		}
		return
	}
	dst.gen++
	for n := range dst.m {
		if _, ok := vs.m[n]; !ok {
			delete(dst.m, n)
		}
	}
	if dst.m == nil {
		dst.m = make(map[string]*Variable, len(vs.m))
	}
	dst.names, dst.vars = dst.names[:0], dst.vars[:0]
	for i, n := range vs.names {
		d, ok := dst.m[n]
		if !ok {
			d = new(Variable)
			dst.m[n] = d
		}
		*d = *vs.vars[i]
		dst.names = append(dst.names, n)
		dst.vars = append(dst.vars, d)
	}
}
