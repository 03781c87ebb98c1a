package parse

import (
	"strings"
	"testing"
)

// TestCheckExtended checks the prepared/extended-protocol check of the
// variables an SQL command binds.
func TestCheckExtended(t *testing.T) {
	cases := []struct {
		name    string
		src     string
		defined []string
		want    string // "" when the script passes
	}{
		{"set before use", "\\set a 1\nSELECT :a;", nil, ""},
		{"automatic variables", "SELECT :scale, :client_id, :random_seed, :default_seed;", nil, ""},
		{"a -D name", "SELECT :foo;", []string{"foo"}, ""},
		{"undefined", "\\set a 1\nSELECT :a, :b;", nil, `t.sql:2:12: undefined variable "b"`},
		{"defined only after the use", "SELECT :a;\n\\set a 1\nSELECT :a;", nil, `t.sql:1:8: undefined variable "a"`},
		{"setshell", "\\setshell n echo 1\nSELECT :n;", nil, ""},
		{"gset names its column", "SELECT 1 AS one \\gset\nSELECT :one;", nil, ""},
		{"gset column in another case", "SELECT 1 AS One \\gset\nSELECT :ONE;", nil, ""},
		{"gset prefix", "SELECT 1 AS one \\gset x_\nSELECT :x_one;", nil, ""},
		{"gset prefix missing", "SELECT 1 AS one \\gset x_\nSELECT :one;", nil, `t.sql:2:8: undefined variable "one"`},
		{"gset of a table column", "SELECT abalance FROM pgbench_accounts WHERE aid = 1 \\gset\nSELECT :abalance;", nil, ""},
		{"gset star", "SELECT * FROM t \\gset p\nSELECT :panything;", nil, ""},
		{"count(*) is no star", "SELECT count(*) AS n FROM t \\gset\nSELECT :m;", nil, `t.sql:2:8: undefined variable "m"`},
		{"aset compound", "\\; SELECT 6 AS i6 \\; SELECT 7 AS i7 \\; \\aset\nSELECT :i6 + :i7;", nil, ""},
		{"defined on one branch", "\\if :c\n\\set a 1\n\\endif\nSELECT :a;", []string{"c"}, ""},
		{"defined on the other branch", "\\if :c\n\\set b 1\n\\else\nSELECT :b;\n\\endif", []string{"c"}, `t.sql:4:8: undefined variable "b"`},
		{"defined in an elif", "\\if 0\n\\elif 1\n\\set a 1\n\\endif\nSELECT :a;", nil, ""},
		{"cast is no variable", "\\set a 1\nSELECT :a::int, '1'::text;", nil, ""},
		{"quoted literal is searched as pgbench does", "SELECT ':nope';", nil, `t.sql:1:9: undefined variable "nope"`},
		{"too many variables", "\\set i 0\nSELECT LEAST(" + strings.Repeat(":i, ", 255) + ":i);", nil, `t.sql:2:1034: statement has too many arguments (maximum is 255)`},
		{"255 variables are fine", "\\set i 0\nSELECT LEAST(" + strings.Repeat(":i, ", 254) + ":i);", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := mustParse(t, c.src).CheckExtended(c.defined)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("CheckExtended: %v, want none", err)
			case c.want != "" && err == nil:
				t.Errorf("CheckExtended passed, want %q", c.want)
			case c.want != "" && !strings.HasPrefix(err.Error(), c.want):
				t.Errorf("CheckExtended: %q, want %q...", err, c.want)
			}
		})
	}
}

// TestSimpleAllowsManyVariables: the 255 limit is the bound protocols'; the
// simple protocol pastes text and takes any number, as pgbench -M simple.
func TestSimpleAllowsManyVariables(t *testing.T) {
	s := mustParse(t, "SELECT LEAST("+strings.Repeat(":i, ", 300)+":i);")
	if n := len(s.Commands[0].SQL.Whole.Vars()); n != 301 {
		t.Errorf("%d references, want 301", n)
	}
}
