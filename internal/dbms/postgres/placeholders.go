package postgres

import (
	"strconv"
	"strings"
)

// dollarPlaceholders rewrites the ? placeholders of stmt into PostgreSQL's
// $1..$n. A ? inside a string literal, a quoted identifier or a comment is
// left alone. Every other ? is a placeholder, so the jsonb operators ?, ?|
// and ?& cannot be written, and E'...' literals with backslash escapes are
// not recognised: dbgauge's statements use neither.
func dollarPlaceholders(stmt string) string {
	if !strings.Contains(stmt, "?") {
		return stmt
	}
	var b strings.Builder
	b.Grow(len(stmt) + 8)
	n := 0
	for i := 0; i < len(stmt); i++ {
		c := stmt[i]
		switch {
		case c == '\'' || c == '"':
			end := closing(stmt, i+1, c)
			b.WriteString(stmt[i:end])
			i = end - 1
		case c == '-' && i+1 < len(stmt) && stmt[i+1] == '-':
			end := strings.IndexByte(stmt[i:], '\n')
			if end < 0 {
				end = len(stmt) - i
			}
			b.WriteString(stmt[i : i+end])
			i += end - 1
		case c == '/' && i+1 < len(stmt) && stmt[i+1] == '*':
			end := strings.Index(stmt[i+2:], "*/")
			if end < 0 {
				end = len(stmt) - i
			} else {
				end += 4
			}
			b.WriteString(stmt[i : i+end])
			i += end - 1
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// closing returns the index just past the quote q that closes a quoted part
// starting at from (a doubled quote is an escaped one), or len(s).
func closing(s string, from int, q byte) int {
	for i := from; i < len(s); i++ {
		if s[i] == q {
			if i+1 < len(s) && s[i+1] == q {
				i++
				continue
			}
			return i + 1
		}
	}
	return len(s)
}
