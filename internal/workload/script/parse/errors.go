package parse

import (
	"errors"
	"fmt"
	"sort"
)

// Pos is a place in a script file: 1-based line and 1-based byte column.
type Pos struct {
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Error is a refused script. Its text is "FILE:LINE:COL: message", one line,
// as a compiler's; Err is the expression parser's own error, when the
// refusal came from Options.ParseExpr.
type Error struct {
	File string
	Pos  Pos
	Msg  string
	Err  error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// AsError returns err's *Error, if it holds one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// lines maps byte offsets of one source to positions.
type lines struct {
	starts []int // offset of the first byte of each line
}

func newLines(src string) lines {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return lines{starts: starts}
}

func (l lines) pos(off int) Pos {
	i := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return Pos{Line: i + 1, Col: off - l.starts[i] + 1}
}
