package parse

import (
	"reflect"
	"testing"
)

// TestSplitSQL checks where SQL commands end, psql's way.
func TestSplitSQL(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string // the Whole text of each SQL command
	}{
		{"two commands", "SELECT 1;\nSELECT 2;\n", []string{"SELECT 1;", "SELECT 2;"}},
		{"two on one line", "SELECT 1; SELECT 2;", []string{"SELECT 1;", "SELECT 2;"}},
		{"no final semicolon", "SELECT 1;\nSELECT 2", []string{"SELECT 1;", "SELECT 2"}},
		{"leading space and blank lines", "\n\n   SELECT 1;\n\n", []string{"SELECT 1;"}},
		{"one command over lines", "SELECT a\n  FROM t\n  WHERE b = 1;", []string{"SELECT a\n  FROM t\n  WHERE b = 1;"}},
		{"semicolon in a string", "SELECT 'a;b'; SELECT 2;", []string{"SELECT 'a;b';", "SELECT 2;"}},
		{"doubled quote", "SELECT 'it''s; fine'; SELECT 2;", []string{"SELECT 'it''s; fine';", "SELECT 2;"}},
		{"backslash is plain in a standard string", `SELECT 'a\'; SELECT 2;`, []string{`SELECT 'a\';`, "SELECT 2;"}},
		{"E string escapes a quote", `SELECT E'a\';b'; SELECT 2;`, []string{`SELECT E'a\';b';`, "SELECT 2;"}},
		{"e string lower case", `SELECT e'\\'; SELECT 2;`, []string{`SELECT e'\\';`, "SELECT 2;"}},
		{"identifier ending in e is no E string", `SELECT name'a\'; SELECT 2;`, []string{`SELECT name'a\';`, "SELECT 2;"}},
		{"letters glued to a number", `SELECT 1e'\'; SELECT 1xe'\'; SELECT 2;`, []string{`SELECT 1e'\';`, `SELECT 1xe'\';`, "SELECT 2;"}},
		{"number with a sign and no exponent digits", `SELECT 1e+'\'; SELECT 2;`, []string{`SELECT 1e+'\';`, "SELECT 2;"}},
		{"national string", "SELECT N'a;b';", []string{"SELECT N'a;b';"}},
		{"bit and hex strings", "SELECT B'1;0', X'1;F';", []string{"SELECT B'1;0', X'1;F';"}},
		{"unicode string and identifier", `SELECT U&'a;b' AS U&"c;d";`, []string{`SELECT U&'a;b' AS U&"c;d";`}},
		{"quoted identifier", `SELECT 1 AS "a;""b"; SELECT 2;`, []string{`SELECT 1 AS "a;""b";`, "SELECT 2;"}},
		{"string continued on the next line", "SELECT 'a'\n  'b;c';", []string{"SELECT 'a'\n  'b;c';"}},
		{"dollar quote", "SELECT $$a;b$$; SELECT 2;", []string{"SELECT $$a;b$$;", "SELECT 2;"}},
		{"tagged dollar quote", "SELECT $f$ $$; $g$ ; $f$;", []string{"SELECT $f$ $$; $g$ ; $f$;"}},
		{"dollar parameter is no quote", "SELECT $1; SELECT 2;", []string{"SELECT $1;", "SELECT 2;"}},
		{"dollar inside an identifier is no quote", "SELECT a$b$; SELECT 2;", []string{"SELECT a$b$;", "SELECT 2;"}},
		{"line comment dropped", "-- what's; this\nSELECT 1; -- after; it's\nSELECT 2;", []string{"SELECT 1;", "SELECT 2;"}},
		{"comment inside a command dropped", "SELECT 1 -- one\n  + 2;", []string{"SELECT 1 \n  + 2;"}},
		{"block comment kept", "SELECT /* a; */ 1;", []string{"SELECT /* a; */ 1;"}},
		{"nested block comment", "SELECT /* a /* b; */ c; */ 1;", []string{"SELECT /* a /* b; */ c; */ 1;"}},
		{"operator then comment", "SELECT 2 +-- c\n 1;", []string{"SELECT 2 +\n 1;"}},
		{"parentheses hold semicolons", "SELECT f(1;2); SELECT 3;", []string{"SELECT f(1;2);", "SELECT 3;"}},
		{"cast", "SELECT :x::int;", []string{"SELECT :x::int;"}},
		{"psql quoted variable token opens no quote", "SELECT :'v' ; SELECT 2;", []string{"SELECT :'v' ;", "SELECT 2;"}},
		{"function body BEGIN ATOMIC", "CREATE FUNCTION f() RETURNS int LANGUAGE sql\nBEGIN ATOMIC\n  SELECT 1;\n  SELECT CASE WHEN true THEN 1 END;\nEND;\nSELECT 3;",
			[]string{"CREATE FUNCTION f() RETURNS int LANGUAGE sql\nBEGIN ATOMIC\n  SELECT 1;\n  SELECT CASE WHEN true THEN 1 END;\nEND;", "SELECT 3;"}},
		{"BEGIN alone is a transaction", "BEGIN;\nSELECT 1;\nEND;", []string{"BEGIN;", "SELECT 1;", "END;"}},
		{"SQL before a meta-command needs no semicolon", "SELECT 1 \\gset\nSELECT 2;", []string{"SELECT 1 ", "SELECT 2;"}},
		{"backslash in a string is no meta-command", "SELECT '\\set x';", []string{"SELECT '\\set x';"}},
		{"compound", "SELECT 1 \\; SELECT 2;", []string{"SELECT 1 ; SELECT 2;"}},
		{"only a comment", "/* nothing */", []string{"/* nothing */"}},
		{"DO block from pgbench's tests", "DO $$\nDECLARE\n  exists boolean;\nBEGIN\n  -- it's; a comment\n  SELECT 1;\nEND$$;\nCOMMIT;",
			[]string{"DO $$\nDECLARE\n  exists boolean;\nBEGIN\n  -- it's; a comment\n  SELECT 1;\nEND$$;", "COMMIT;"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := sqlTexts(mustParse(t, c.src))
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Parse(%q) SQL =\n%q\nwant\n%q", c.src, got, c.want)
			}
		})
	}
}

// TestStatements checks the statement boundaries `\;` leaves in a command.
func TestStatements(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"SELECT 1;", []string{"SELECT 1"}},
		{"SELECT 1 \\; SELECT 2;", []string{"SELECT 1", "SELECT 2"}},
		{"\\; \\; SELECT 0 AS i5 \\; SELECT 5 AS i5 \\; \\; \\gset", []string{"SELECT 0 AS i5", "SELECT 5 AS i5"}},
		{"SELECT 'a\\;b' \\; SELECT ';'", []string{"SELECT 'a\\;b'", "SELECT ';'"}},
		{"SELECT 1 ;  ", []string{"SELECT 1"}},
	}
	for _, c := range cases {
		s := mustParse(t, c.src)
		var got []string
		for _, st := range s.Commands[0].SQL.Statements {
			got = append(got, st.String())
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Parse(%q) statements = %q, want %q", c.src, got, c.want)
		}
	}
}

// TestSQLPositions checks where a command and its references are said to be.
func TestSQLPositions(t *testing.T) {
	s := mustParse(t, "-- head\n\n  SELECT 1 -- x\n  , :a \\; SELECT :b;")
	c := s.Commands[0]
	if c.Pos != (Pos{3, 3}) {
		t.Errorf("command at %v, want 3:3", c.Pos)
	}
	if c.Text != "SELECT 1 " {
		t.Errorf("Text = %q", c.Text)
	}
	var at []Pos
	for _, p := range c.SQL.Whole.Parts {
		if p.Var != "" {
			at = append(at, p.Pos)
		}
	}
	if want := []Pos{{4, 5}, {4, 18}}; !reflect.DeepEqual(at, want) {
		t.Errorf("references at %v, want %v", at, want)
	}
	if st := c.SQL.Statements[1]; st.Parts[0].Pos != (Pos{4, 11}) {
		t.Errorf("second statement at %v, want 4:11", st.Parts[0].Pos)
	}
}
