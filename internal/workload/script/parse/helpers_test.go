package parse

import (
	"strings"
	"testing"
)

// keepSource stands in for package expr's parser: it accepts every
// expression and keeps its source as the parsed value.
func keepSource(src string) (any, error) { return strings.TrimSpace(src), nil }

var testOpts = Options{ParseExpr: keepSource}

// offsetError is an expression error that says where it is, as package
// expr's errors do.
type offsetError struct {
	off int
	msg string
}

func (e offsetError) Error() string { return e.msg }
func (e offsetError) Offset() int   { return e.off }

func mustParse(t *testing.T, src string) *Script {
	t.Helper()
	s, err := Parse("t.sql", src, testOpts)
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	return s
}

// sqlTexts lists the Whole text of each SQL command.
func sqlTexts(s *Script) []string {
	var out []string
	for _, c := range s.Commands {
		if c.Kind == KindSQL {
			out = append(out, c.SQL.Whole.String())
		}
	}
	return out
}

// shape is a script's commands in brief: "SQL", "set", ... in order.
func shape(s *Script) string {
	var out []string
	for _, c := range s.Commands {
		out = append(out, c.Kind.String())
	}
	return strings.Join(out, " ")
}
