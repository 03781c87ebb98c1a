package parse

import (
	"strings"
	"testing"
)

// FuzzParse checks that any input is parsed or refused with one *Error at
// a place inside the file, and that an accepted script's SQL keeps its text.
func FuzzParse(f *testing.F) {
	for _, c := range pgbenchCases {
		f.Add(c.script)
	}
	for _, c := range pgbenchScripts {
		f.Add(c.script)
	}
	f.Add("SELECT $a$ ; $a$ \\; SELECT E'\\'' \\gset p\n\\if :x\n\\sleep 1ms\n\\endif")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse("f.sql", src, testOpts)
		if err != nil {
			e, ok := AsError(err)
			if !ok {
				t.Fatalf("error %v is not an *Error", err)
			}
			if e.Pos.Line < 1 || e.Pos.Line > strings.Count(src, "\n")+1 || e.Pos.Col < 1 {
				t.Fatalf("error %v outside the file", err)
			}
			if strings.Contains(e.Error(), "\n") && !strings.Contains(src, "\n") {
				t.Fatalf("error %q spans lines", e)
			}
			return
		}
		for _, c := range s.Commands {
			if c.Kind != KindSQL {
				continue
			}
			whole := c.SQL.Whole.String()
			for _, st := range c.SQL.Statements {
				if !strings.Contains(whole, st.String()) {
					t.Fatalf("statement %q not in command %q", st.String(), whole)
				}
			}
			sql, args := c.SQL.Whole.Bind(DollarPlaceholder)
			if len(args) != len(c.SQL.Whole.Vars()) || len(args) > 0 && !strings.Contains(sql, "$1") {
				t.Fatalf("Bind(%q) = %q %q", whole, sql, args)
			}
		}
		_ = s.CheckExtended(nil)
	})
}
