package expr

import (
	"errors"
	"strings"
)

// tokKind is a token of pgbench's expression scanner.
type tokKind uint8

const (
	tEOF tokKind = iota
	tInt
	tMaxIntPlusOne // 9223372036854775808, valid only right after a unary minus
	tDouble
	tBool
	tNull
	tVar
	tFunc
	tAnd
	tOr
	tNot
	tIs
	tIsNull
	tNotNull
	tCase
	tWhen
	tThen
	tElse
	tEnd
	tPlus
	tMinus
	tStar
	tSlash
	tPercent
	tEq
	tNe
	tLt
	tLe
	tGt
	tGe
	tShl
	tShr
	tBitOr
	tBitAnd
	tBitXor
	tBitNot
	tLParen
	tRParen
	tComma
)

type token struct {
	kind       tokKind
	start, end int // byte offsets in the source
	text       string
	i          int64
	f          float64
	b          bool
}

// last is where pgbench points at this token in an error: its last byte
// (for the end of input, the newline that ended it, or the source's last
// byte).
func (t token) last() int {
	if t.end > t.start {
		return t.end - 1
	}
	return t.start
}

// Keywords are matched whole and without regard to case; a longer word is a
// function name ("andx"), as the longest match wins in pgbench's scanner.
var keywords = map[string]tokKind{
	"and": tAnd, "or": tOr, "not": tNot, "is": tIs, "isnull": tIsNull,
	"notnull": tNotNull, "case": tCase, "when": tWhen, "then": tThen,
	"else": tElse, "end": tEnd, "null": tNull, "true": tBool, "false": tBool,
}

// Two-byte operators first: the longest match wins.
var operators = []struct {
	text string
	kind tokKind
}{
	{"<>", tNe}, {"!=", tNe}, {"<=", tLe}, {">=", tGe}, {"<<", tShl}, {">>", tShr},
	{"+", tPlus}, {"-", tMinus}, {"*", tStar}, {"/", tSlash}, {"%", tPercent},
	{"=", tEq}, {"<", tLt}, {">", tGt}, {"|", tBitOr}, {"&", tBitAnd},
	{"#", tBitXor}, {"~", tBitNot}, {"(", tLParen}, {")", tRParen}, {",", tComma},
}

const maxIntPlusOne = "9223372036854775808"

type lexer struct {
	src string
	pos int
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

// next scans one token. A newline ends the expression as the end of the
// source does; a backslash before a newline continues the line.
func (l *lexer) next() (token, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case isSpace(c):
			l.pos++
			continue
		case c == '\\' && strings.HasPrefix(l.src[l.pos+1:], "\n"):
			l.pos += 2
			continue
		case c == '\\' && strings.HasPrefix(l.src[l.pos+1:], "\r\n"):
			l.pos += 3
			continue
		}
		break
	}
	start := l.pos
	if l.pos >= len(l.src) {
		return token{kind: tEOF, start: max(len(l.src)-1, 0), end: max(len(l.src)-1, 0)}, nil
	}
	c := l.src[l.pos]
	switch {
	case c == '\n':
		return token{kind: tEOF, start: start, end: start + 1}, nil
	case c == ':' && l.pos+1 < len(l.src) && isNameByte(l.src[l.pos+1]):
		l.pos++
		for l.pos < len(l.src) && isNameByte(l.src[l.pos]) {
			l.pos++
		}
		return token{kind: tVar, start: start, end: l.pos, text: l.src[start+1 : l.pos]}, nil
	case isDigit(c) || (c == '.' && l.pos+1 < len(l.src) && isDigit(l.src[l.pos+1])):
		return l.number()
	case c >= 0x80 || c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z'):
		for l.pos < len(l.src) && isNameByte(l.src[l.pos]) {
			l.pos++
		}
		word := l.src[start:l.pos]
		t := token{kind: tFunc, start: start, end: l.pos, text: word}
		if k, ok := keywords[strings.ToLower(word)]; ok {
			t.kind = k
			t.b = k == tBool && strings.EqualFold(word, "true")
		}
		return t, nil
	}
	for _, op := range operators {
		if strings.HasPrefix(l.src[l.pos:], op.text) {
			l.pos += len(op.text)
			return token{kind: op.kind, start: start, end: l.pos, text: op.text}, nil
		}
	}
	l.pos++
	return token{}, &SyntaxError{Pos: start, Msg: "unexpected character (" + l.src[start:l.pos] + ")"}
}

// number scans an integer ({digit}+) or a double ({digit}+ with a fraction
// or an exponent, or .{digit}+ with an optional exponent).
func (l *lexer) number() (token, error) {
	start := l.pos
	for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
		l.pos++
	}
	isDouble := false
	if l.pos < len(l.src) && l.src[l.pos] == '.' {
		isDouble = true
		l.pos++
		for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
			l.pos++
		}
	}
	if j := exponentEnd(l.src, l.pos, 'e'); j > l.pos {
		isDouble, l.pos = true, j
	}
	text := l.src[start:l.pos]
	t := token{start: start, end: l.pos, text: text}
	if isDouble {
		f, err := parseDouble(text)
		if err != nil {
			return token{}, &SyntaxError{Pos: l.pos - 1, Msg: "double constant overflow (" + text + ")"}
		}
		t.kind, t.f = tDouble, f
		return t, nil
	}
	if text == maxIntPlusOne {
		t.kind = tMaxIntPlusOne
		return t, nil
	}
	i, err := parseInt64(text)
	if errors.Is(err, errRange) || err != nil {
		return token{}, &SyntaxError{Pos: l.pos - 1, Msg: "bigint constant overflow (" + text + ")"}
	}
	t.kind, t.i = tInt, i
	return t, nil
}
