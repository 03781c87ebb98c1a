package parse

import "strings"

// MaxVars is the most variable references one SQL command may hold under
// the extended and prepared protocols: pgbench's MAX_ARGS (256) less the
// statement itself.
const MaxVars = 255

// Text is SQL text cut into literal parts and variable references, so that
// a runtime renders it under any protocol without scanning it again.
type Text struct {
	Parts []Part
}

// Part is a literal piece of SQL (Var == "") or one ":name" reference.
type Part struct {
	Lit string
	Var string
	Pos Pos // where the part starts in the script file
}

// String is the text as written, each reference as ":name".
func (t Text) String() string {
	var b strings.Builder
	for _, p := range t.Parts {
		if p.Var != "" {
			b.WriteByte(':')
			b.WriteString(p.Var)
		} else {
			b.WriteString(p.Lit)
		}
	}
	return b.String()
}

// Vars lists the references in order, a variable used twice twice.
func (t Text) Vars() []string {
	var vs []string
	for _, p := range t.Parts {
		if p.Var != "" {
			vs = append(vs, p.Var)
		}
	}
	return vs
}

// Simple renders the text for the simple protocol, as pgbench -M simple
// does: each reference becomes the variable's value, pasted as text with no
// quoting; a variable lookup does not know is left as ":name".
func (t Text) Simple(lookup func(name string) (string, bool)) string {
	var b strings.Builder
	for _, p := range t.Parts {
		if p.Var == "" {
			b.WriteString(p.Lit)
			continue
		}
		if v, ok := lookup(p.Var); ok {
			b.WriteString(v)
		} else {
			b.WriteByte(':')
			b.WriteString(p.Var)
		}
	}
	return b.String()
}

// Bind renders the text for the extended and prepared protocols: the i-th
// reference (from 1) becomes placeholder(i), "$1" for PostgreSQL or "?" for
// the other engines, and args[i-1] names the variable to bind there. Every
// reference is its own parameter, a variable used twice is bound twice, as
// pgbench does.
func (t Text) Bind(placeholder func(i int) string) (sql string, args []string) {
	var b strings.Builder
	for _, p := range t.Parts {
		if p.Var == "" {
			b.WriteString(p.Lit)
			continue
		}
		args = append(args, p.Var)
		b.WriteString(placeholder(len(args)))
	}
	return b.String(), args
}

// DollarPlaceholder is PostgreSQL's placeholder: $1, $2, ...
func DollarPlaceholder(i int) string { return "$" + itoa(i) }

// QuestionPlaceholder is the placeholder of MySQL, SQLite, DuckDB and
// Firebird: ? for every parameter.
func QuestionPlaceholder(int) string { return "?" }

func itoa(i int) string {
	var buf [20]byte
	n := len(buf)
	for {
		n--
		buf[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			return string(buf[n:])
		}
	}
}

// isVarStart and isVarChar are pgbench's variable-name bytes: ASCII letters
// and "_" (and digits after the first), and every byte of a non-ASCII
// character.
func isVarStart(c byte) bool {
	return c >= 0x80 || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isVarChar(c byte) bool { return isVarStart(c) || c >= '0' && c <= '9' }

// ValidVarName reports whether name is a name pgbench accepts for a
// variable: not empty, made of variable-name bytes, not starting with a
// digit.
func ValidVarName(name string) bool {
	if name == "" || !isVarStart(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		if !isVarChar(name[i]) {
			return false
		}
	}
	return true
}

// varName returns the length of the name after the colon at s[0], or 0 when
// what follows is no name.
func varName(s string) int {
	if len(s) < 2 || !isVarStart(s[1]) {
		return 0
	}
	n := 2
	for n < len(s) && isVarChar(s[n]) {
		n++
	}
	return n - 1
}

// cutVars cuts SQL text into parts the way pgbench's parseQuery and
// assignVariables find variables: every ":" followed by a name, wherever it
// stands, even inside a quoted literal (pgbench substitutes there too, §2); a run
// of colons not followed by a name ("::int") stays text. at maps a byte
// offset of text to its position in the file.
func cutVars(text string, at func(off int) Pos) Text {
	var t Text
	lit := 0
	for i := 0; i < len(text); {
		if text[i] != ':' {
			i++
			continue
		}
		n := varName(text[i:])
		if n == 0 {
			for i < len(text) && text[i] == ':' {
				i++
			}
			continue
		}
		if i > lit {
			t.Parts = append(t.Parts, Part{Lit: text[lit:i], Pos: at(lit)})
		}
		t.Parts = append(t.Parts, Part{Var: text[i+1 : i+1+n], Pos: at(i)})
		i += 1 + n
		lit = i
	}
	if lit < len(text) {
		t.Parts = append(t.Parts, Part{Lit: text[lit:], Pos: at(lit)})
	}
	return t
}
