package parse

import (
	"strings"
	"testing"
)

// TestRefusals checks every refusal: one error, at the right line and
// column, with a message that says what is wrong.
func TestRefusals(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want string // the error's text up to the message, then a part of it
	}{
		{"empty script", "", "t.sql:1:1: empty command list for script"},
		{"only comments", "-- nothing\n\n-- here\n", "t.sql:1:1: empty command list for script"},
		{"unknown meta-command", "SELECT 1;\n  \\nosuchcommand x", `t.sql:2:3: invalid command in command "nosuchcommand"`},
		{"\\set without variable", "\\set", `t.sql:1:1: missing argument in command "set"`},
		{"\\set without expression", "\\set i  \n", `t.sql:1:9: syntax error in command "set": the expression is missing`},
		{"\\set bad variable name", "\\set . 1", `t.sql:1:6: invalid variable name "." in command "set"`},
		{"\\set name starting with a digit", "\\set 1a 1", `t.sql:1:6: invalid variable name "1a"`},
		{"\\if without expression", "\\if\n\\endif\n", `t.sql:1:4: syntax error in command "if"`},
		{"\\elif without expression", "\\if 0\n\\elif  \n\\endif\n", `t.sql:2:8: syntax error in command "elif"`},
		{"\\else with argument", "\\if 0\n\\else BAD\n\\endif\n", `t.sql:2:7: unexpected argument in command "else"`},
		{"\\endif with argument", "\\if 0\n\\endif BAD\n", `t.sql:2:8: unexpected argument in command "endif"`},
		{"\\startpipeline with argument", "\\startpipeline now\n\\endpipeline", `t.sql:1:16: unexpected argument in command "startpipeline"`},
		{"\\sleep without argument", "\\sleep", `t.sql:1:1: missing argument in command "sleep"`},
		{"\\sleep too many arguments", "\\sleep too many args", `t.sql:1:17: too many arguments in command "sleep"`},
		{"\\sleep bad unit", "\\sleep 1 week", `t.sql:1:10: unrecognized time unit, must be us, ms or s (week)`},
		{"\\sleep bad glued unit", "\\sleep 1.5", `t.sql:1:9: unrecognized time unit, must be us, ms or s (.5)`},
		{"\\sleep not a number", "\\sleep abc", `t.sql:1:8: invalid sleep time, must be an integer (abc)`},
		{"\\sleep number and junk then a unit", "\\sleep 1x ms", `t.sql:1:8: invalid sleep time, must be an integer (1x)`},
		{"\\sleep too large", "\\sleep 99999999999", `t.sql:1:8: invalid sleep time, must be an integer (99999999999) in command "sleep": it is out of range`},
		{"\\sleep bad variable", "\\sleep :1", `t.sql:1:8: invalid variable name "1" in command "sleep"`},
		{"\\setshell without command", "\\setshell var", `t.sql:1:1: missing argument in command "setshell"`},
		{"\\setshell bad variable", "\\setshell 9 echo 1", `t.sql:1:11: invalid variable name "9" in command "setshell"`},
		{"\\shell without command", "\\shell", `t.sql:1:1: missing command in command "shell"`},
		{"\\shell too many arguments", "\\shell echo" + strings.Repeat(" a", 254) + " last", `t.sql:1:521: too many arguments in command "shell" (at most 255)`},
		{"\\gset first", "\\gset", `t.sql:1:1: \gset must follow an SQL command, not stand at the start of the script`},
		{"\\gset after a meta-command", "\\set i +1\n\\gset", `t.sql:2:1: \gset must follow an SQL command, not stand after "\\set i +1"`},
		{"\\gset twice", "SELECT 1 AS i \\gset\n\\gset", `t.sql:2:1: \gset must follow an SQL command, not stand after "SELECT 1 AS i ", which has its \gset or \aset already`},
		{"\\aset first", "\\aset", `t.sql:1:1: \aset must follow an SQL command`},
		{"\\gset too many arguments", "SELECT 1 \\gset a b", `t.sql:1:18: too many arguments in command "gset"`},
		{"\\elif without \\if", "SELECT 1;\n\\elif 1", `t.sql:2:1: \elif without matching \if`},
		{"\\else without \\if", "\\else", `t.sql:1:1: \else without matching \if`},
		{"\\endif without \\if", "\\if 1\n\\endif\n\\endif", `t.sql:3:1: \endif without matching \if`},
		{"\\elif after \\else", "\\if 1\n\\else\n\\elif 0\n\\endif", `t.sql:3:1: \elif after \else`},
		{"\\else after \\else", "\\if 1\n\\else\n\\else\n\\endif", `t.sql:3:1: \else after \else`},
		{"unclosed \\if", "\\if 1\n  \\if 2\n  \\endif\nSELECT 1;", `t.sql:1:1: \if without matching \endif`},
		{"second \\if unclosed", "\\if 1\n\\endif\n  \\if 2\n", `t.sql:3:3: \if without matching \endif`},
		{"\\startpipeline twice", "\\startpipeline\n\\startpipeline\n", `t.sql:2:1: \startpipeline: already in pipeline mode (the pipeline opened at 1:1)`},
		{"\\endpipeline without start", "\\endpipeline", `t.sql:1:1: \endpipeline: not in pipeline mode`},
		{"\\syncpipeline without start", "SELECT 1;\n\\syncpipeline", `t.sql:2:1: \syncpipeline: not in pipeline mode`},
		{"pipeline left open", "SELECT 1;\n\\startpipeline\nSELECT 2;", `t.sql:2:1: \startpipeline without \endpipeline: end of script reached with pipeline open`},
		{"\\gset in a pipeline", "\\startpipeline\nselect 1 \\gset f\n\\endpipeline", `t.sql:2:10: \gset is not allowed in pipeline mode`},
		{"\\aset in a pipeline", "\\startpipeline\nselect 1 \\; select 2 \\aset\n\\endpipeline", `t.sql:2:22: \aset is not allowed in pipeline mode`},
		{"pipeline opened in one branch only", "\\if :x\n\\startpipeline\n\\endif\nSELECT 1;\n\\endpipeline", `t.sql:5:1: \endpipeline: not in pipeline mode on some path through the \if branches`},
		{"unterminated string", "SELECT 1;\nSELECT 'abc;\n", `t.sql:2:8: unterminated quoted string`},
		{"unterminated E string", `SELECT E'abc\';`, `t.sql:1:8: unterminated quoted string`},
		{"unterminated identifier", `SELECT "abc;`, `t.sql:1:8: unterminated quoted identifier`},
		{"unterminated dollar quote", "DO $body$ BEGIN; $$;", `t.sql:1:4: unterminated dollar-quoted string $body$`},
		{"unterminated comment", "SELECT /* a /* b */ 1;", `t.sql:1:8: unterminated /* comment`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("t.sql", c.src, testOpts)
			if err == nil {
				t.Fatalf("Parse(%q) accepted it, want %q", c.src, c.want)
			}
			if _, ok := AsError(err); !ok {
				t.Errorf("error %v is not an *Error", err)
			}
			if got := err.Error(); !strings.HasPrefix(got, c.want) {
				t.Errorf("Parse(%q)\n error %q\n want  %q...", c.src, got, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q spans lines", err)
			}
		})
	}
}

// TestExpressionErrorPosition checks that the hook's error offset becomes
// the line and column of the file, through continuation lines.
func TestExpressionErrorPosition(t *testing.T) {
	var src string
	opts := Options{ParseExpr: func(s string) (any, error) {
		src = s
		return nil, offsetError{off: len(s) - 1, msg: "syntax error"}
	}}
	_, err := Parse("x.sql", "SELECT 1;\n\\set i 1 + \\\n  2 +\n", opts)
	if err == nil {
		t.Fatal("accepted")
	}
	// src is " 1 +   " + "  2 +": its last byte is the "+" at line 3, col 5.
	if got, want := err.Error(), `x.sql:3:5: syntax error in command "set"`; got != want {
		t.Errorf("error %q, want %q (hook got %q)", got, want, src)
	}
	e, _ := AsError(err)
	if _, ok := e.Unwrap().(offsetError); !ok {
		t.Errorf("the hook's error is not kept: %#v", e.Err)
	}

	// An error without an offset is placed at the expression's start.
	opts.ParseExpr = func(string) (any, error) { return nil, errPlain("unexpected function name (noSuchFunction)") }
	_, err = Parse("x.sql", "\\if   noSuchFunction()", opts)
	if got, want := err.Error(), `x.sql:1:7: unexpected function name (noSuchFunction) in command "if"`; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
}

type errPlain string

func (e errPlain) Error() string { return string(e) }
