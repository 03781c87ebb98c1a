package parse

import (
	"sort"
	"strings"
)

// The SQL lexer follows psql's (src/fe_utils/psqlscan.l) as far as finding
// where a command ends: a ";" outside quotes, comments, parentheses and the
// BEGIN ... END body of CREATE FUNCTION/PROCEDURE, or a backslash that
// starts a meta-command. Like psql it echoes the command into a buffer,
// dropping leading white space and every "--" comment (docs/pgbench-scripts.md
// §1).

type lexState int

const (
	stInitial lexState = iota
	stComment          // /* ... */, nested
	stQuote            // '...', B'...', X'...', U&'...' ('' doubles a quote)
	stEscape           // E'...' (backslash escapes)
	stIdent            // "..." and U&"..."
	stDollar           // $tag$...$tag$
)

// scanEnd says why scanning stopped.
type scanEnd int

const (
	endSemicolon scanEnd = iota // a command-ending ";" (in the buffer)
	endBackslash                // a backslash starting a meta-command; pos is after it
	endEOF
)

type sqlLexer struct {
	src string
	pos int

	state      lexState
	stateStart int    // offset where the current quoted state began
	depth      int    // nested /* */ depth beyond the first
	dolq       string // the $tag$ that ends the dollar quote

	parens int // open parentheses
	begins int // open BEGIN (CASE) inside a CREATE FUNCTION body
	nids   int // identifiers seen in this statement
	ids    [4]byte
	prev   string // the last token outside quotes, for "SELECT *" detection
}

// sqlBuf collects one command's text and where each byte came from.
type sqlBuf struct {
	text  strings.Builder
	spans []span // runs of text copied from contiguous source
	semis []int  // text offsets of the ";" that `\;` put in
	names map[string]bool
	star  bool
}

type span struct{ out, src int }

func (b *sqlBuf) reset() {
	b.text.Reset()
	b.spans = b.spans[:0]
	b.semis = nil
	b.names = nil
	b.star = false
}

func (b *sqlBuf) emit(src string, from, to int) {
	if from >= to {
		return
	}
	if n := len(b.spans); n == 0 || b.spans[n-1].src+(b.text.Len()-b.spans[n-1].out) != from {
		b.spans = append(b.spans, span{out: b.text.Len(), src: from})
	}
	b.text.WriteString(src[from:to])
}

func (b *sqlBuf) name(s string) {
	if b.names == nil {
		b.names = map[string]bool{}
	}
	b.names[strings.ToLower(s)] = true
}

// srcOffset maps an offset of the buffer's text to the source.
func (b *sqlBuf) srcOffset(out int) int {
	i := sort.Search(len(b.spans), func(i int) bool { return b.spans[i].out > out }) - 1
	if i < 0 {
		return 0
	}
	return b.spans[i].src + out - b.spans[i].out
}

func isSQLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

func isIdentStart(c byte) bool {
	return c >= 0x80 || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == '$' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (l *sqlLexer) at(i int) byte {
	if i < len(l.src) {
		return l.src[i]
	}
	return 0
}

// scan copies SQL into b until a command ends, a meta-command starts or the
// source ends. The lexer's state (open quote, parentheses) carries over to
// the next call, as psql's does.
func (l *sqlLexer) scan(b *sqlBuf) scanEnd {
	for l.pos < len(l.src) {
		switch l.state {
		case stComment:
			l.comment(b)
		case stQuote, stEscape:
			l.quoted(b)
		case stIdent:
			l.ident(b)
		case stDollar:
			l.dollar(b)
		default:
			if end, stop := l.initial(b); stop {
				return end
			}
		}
	}
	return endEOF
}

// initial lexes one token outside quotes and comments.
func (l *sqlLexer) initial(b *sqlBuf) (scanEnd, bool) {
	s, p := l.src, l.pos
	c, next := s[p], l.at(p+1)
	switch {
	case isSQLSpace(c):
		j := p
		for j < len(s) && isSQLSpace(s[j]) {
			j++
		}
		if b.text.Len() > 0 {
			b.emit(s, p, j)
		}
		l.pos = j
	case c == '-' && next == '-':
		j := p
		for j < len(s) && s[j] != '\n' && s[j] != '\r' {
			j++
		}
		l.pos = j // dropped, as psql drops "--" comments
	case c == '/' && next == '*':
		l.enter(stComment, p)
		l.depth = 0
		b.emit(s, p, p+2)
		l.pos = p + 2
	case isIdentStart(c):
		l.word(b)
	case isDigit(c):
		l.number(b)
	case c == '\'':
		l.enter(stQuote, p)
		b.emit(s, p, p+1)
		l.pos = p + 1
	case c == '"':
		l.enter(stIdent, p)
		b.emit(s, p, p+1)
		l.pos = p + 1
	case c == '$':
		l.dollarStart(b)
	case c == ';':
		b.emit(s, p, p+1)
		l.pos = p + 1
		l.prev = ";"
		if l.parens == 0 && l.begins == 0 {
			l.nids = 0
			return endSemicolon, true
		}
	case c == '\\' && (next == ';' || next == ':'):
		// `\;` joins statements into one command; `\:` is a colon psql
		// would not take for a variable (pgbench's parser still does).
		if next == ';' {
			b.semis = append(b.semis, b.text.Len())
			l.nids = 0
		}
		b.emit(s, p+1, p+2)
		l.pos = p + 2
		l.prev = string(next)
	case c == '\\':
		l.pos = p + 1
		return endBackslash, true
	case c == ':':
		l.colon(b)
	default:
		switch c {
		case '(':
			l.parens++
		case ')':
			if l.parens > 0 {
				l.parens--
			}
		case '*':
			switch l.prev {
			case "select", "distinct", "all", "returning", ",", ".":
				b.star = true
			}
		}
		b.emit(s, p, p+1)
		l.pos = p + 1
		l.prev = string(c)
	}
	return 0, false
}

func (l *sqlLexer) enter(st lexState, at int) {
	l.state, l.stateStart = st, at
}

// word lexes an identifier or keyword, or the prefix of a special literal:
// B'x', X'x', E'x', N'x', U&'x' and U&"x".
func (l *sqlLexer) word(b *sqlBuf) {
	s, p := l.src, l.pos
	lower := s[p] | 0x20
	if l.at(p+1) == '\'' {
		switch lower {
		case 'b', 'x':
			l.enter(stQuote, p)
			b.emit(s, p, p+2)
			l.pos = p + 2
			return
		case 'e':
			l.enter(stEscape, p)
			b.emit(s, p, p+2)
			l.pos = p + 2
			return
		case 'n':
			// N'...' is a national character literal: the N, then a
			// standard quoted string.
			b.emit(s, p, p+1)
			l.pos = p + 1
			return
		}
	}
	if lower == 'u' && l.at(p+1) == '&' && (l.at(p+2) == '\'' || l.at(p+2) == '"') {
		st := stQuote
		if l.at(p+2) == '"' {
			st = stIdent
		}
		l.enter(st, p)
		b.emit(s, p, p+3)
		l.pos = p + 3
		return
	}
	j := p + 1
	for j < len(s) && isIdentChar(s[j]) {
		j++
	}
	w := strings.ToLower(s[p:j])
	l.identifier(w)
	b.name(w)
	b.emit(s, p, j)
	l.pos = j
	l.prev = w
}

// identifier follows psql's heuristic for the body of CREATE [OR REPLACE]
// FUNCTION/PROCEDURE ... BEGIN ATOMIC ... END, whose semicolons do not end
// the command.
func (l *sqlLexer) identifier(w string) {
	if l.nids == 0 {
		l.ids = [4]byte{}
	}
	switch w {
	case "create", "function", "procedure", "or", "replace":
		if l.nids < len(l.ids) {
			l.ids[l.nids] = w[0]
		}
	}
	l.nids++
	id := l.ids
	if id[0] == 'c' && (id[1] == 'f' || id[1] == 'p' || id[1] == 'o' && id[2] == 'r' && (id[3] == 'f' || id[3] == 'p')) && l.parens == 0 {
		switch w {
		case "begin":
			l.begins++
		case "case":
			if l.begins >= 1 {
				l.begins++
			}
		case "end":
			if l.begins > 0 {
				l.begins--
			}
		}
	}
}

// number lexes a numeric literal and, as PostgreSQL 15's lexer does, any
// identifier glued to it ("trailing junk": 1e'x' is 1e then a standard
// string, not 1 then an E-string).
func (l *sqlLexer) number(b *sqlBuf) {
	s, p := l.src, l.pos
	j := p
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j < len(s) && s[j] == '.' && l.at(j+1) != '.' {
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	if j < len(s) && s[j]|0x20 == 'e' {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
			j = k // "1e+" without digits still takes the sign
		}
		for k < len(s) && isDigit(s[k]) {
			k++
			j = k
		}
	}
	if j < len(s) && isIdentStart(s[j]) {
		for j < len(s) && isIdentChar(s[j]) {
			j++
		}
	}
	b.emit(s, p, j)
	l.pos = j
	l.prev = "0"
}

// dollarStart lexes a "$": the start of $tag$ quoting, a $1 parameter, or
// a lone "$".
func (l *sqlLexer) dollarStart(b *sqlBuf) {
	s, p := l.src, l.pos
	if d := dollarDelim(s[p:]); d != "" {
		l.enter(stDollar, p)
		l.dolq = d
		b.emit(s, p, p+len(d))
		l.pos = p + len(d)
		return
	}
	j := p + 1
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	b.emit(s, p, j)
	l.pos = j
	l.prev = "$"
}

// dollarDelim returns the $tag$ at the start of s, or "".
func dollarDelim(s string) string {
	if len(s) < 2 || s[0] != '$' {
		return ""
	}
	j := 1
	if isIdentStart(s[j]) {
		j++
		for j < len(s) && isIdentStart(s[j]) || j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	if j < len(s) && s[j] == '$' {
		return s[:j+1]
	}
	return ""
}

// colon lexes a ":" outside quotes. psql takes :'name', :"name" and
// :{?name} as one token each (they do not open a quote); the variables
// pgbench substitutes are found later, in the whole text (see cutVars).
func (l *sqlLexer) colon(b *sqlBuf) {
	s, p := l.src, l.pos
	j := p + 1
	switch q := l.at(p + 1); {
	case q == '\'' || q == '"':
		k := p + 2
		for k < len(s) && isVarChar(s[k]) {
			k++
		}
		if k > p+2 && l.at(k) == q {
			j = k + 1
		}
	case q == '{' && l.at(p+2) == '?':
		k := p + 3
		for k < len(s) && isVarChar(s[k]) {
			k++
		}
		if k > p+3 && l.at(k) == '}' {
			j = k + 1
		}
	case q == ':' || q == '=':
		j = p + 2 // a cast or :=
	}
	b.emit(s, p, j)
	l.pos = j
	l.prev = ":"
}

// comment lexes inside /* */, which nest.
func (l *sqlLexer) comment(b *sqlBuf) {
	s, p := l.src, l.pos
	switch {
	case s[p] == '/' && l.at(p+1) == '*':
		l.depth++
		b.emit(s, p, p+2)
		l.pos = p + 2
	case s[p] == '*' && l.at(p+1) == '/':
		if l.depth == 0 {
			l.state = stInitial
		} else {
			l.depth--
		}
		b.emit(s, p, p+2)
		l.pos = p + 2
	default:
		b.emit(s, p, p+1)
		l.pos = p + 1
	}
}

// quoted lexes inside '...' (and E'...' with its backslash escapes) up to
// and including the closing quote.
func (l *sqlLexer) quoted(b *sqlBuf) {
	s, p := l.src, l.pos
	j := p
	for j < len(s) {
		c := s[j]
		if c == '\\' && l.state == stEscape {
			j += 2
			continue
		}
		if c != '\'' {
			j++
			continue
		}
		if l.at(j+1) == '\'' {
			j += 2
			continue
		}
		break
	}
	if j >= len(s) {
		b.emit(s, p, len(s))
		l.pos = len(s)
		return
	}
	b.name(s[p:j])
	b.emit(s, p, j+1)
	l.pos = j + 1
	// A literal continues after white space holding a newline and another
	// quote ('a'\n'b' is 'ab'), as in SQL.
	if k := quoteContinues(s, j+1); k > 0 {
		b.emit(s, j+1, k)
		l.pos = k
		return
	}
	l.state = stInitial
	l.prev = "'"
}

// quoteContinues returns the offset just after the quote that continues a
// literal ended at i, or 0.
func quoteContinues(s string, i int) int {
	newline := false
	for i < len(s) {
		switch c := s[i]; {
		case c == '\n' || c == '\r':
			newline = true
			i++
		case c == ' ' || c == '\t' || c == '\f':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' && s[i] != '\r' {
				i++
			}
		case c == '\'' && newline:
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// ident lexes inside "..." up to and including the closing quote.
func (l *sqlLexer) ident(b *sqlBuf) {
	s, p := l.src, l.pos
	j := p
	for j < len(s) {
		if s[j] == '"' {
			if l.at(j+1) == '"' {
				j += 2
				continue
			}
			break
		}
		j++
	}
	if j >= len(s) {
		b.emit(s, p, len(s))
		l.pos = len(s)
		return
	}
	b.name(strings.ReplaceAll(s[p:j], `""`, `"`))
	b.emit(s, p, j+1)
	l.pos = j + 1
	l.state = stInitial
	l.prev = `"`
}

// dollar lexes inside $tag$...$tag$ up to and including the closing tag.
func (l *sqlLexer) dollar(b *sqlBuf) {
	s, p := l.src, l.pos
	i := strings.Index(s[p:], l.dolq)
	if i < 0 {
		b.emit(s, p, len(s))
		l.pos = len(s)
		return
	}
	end := p + i + len(l.dolq)
	b.emit(s, p, end)
	l.pos = end
	l.state = stInitial
	l.prev = "$"
}

// unterminated names the open quote or comment at the end of the source.
func (l *sqlLexer) unterminated() string {
	switch l.state {
	case stComment:
		return "unterminated /* comment"
	case stQuote, stEscape:
		return "unterminated quoted string"
	case stIdent:
		return "unterminated quoted identifier"
	case stDollar:
		return "unterminated dollar-quoted string " + l.dolq
	}
	return ""
}
