package parse

import (
	"regexp"
	"strings"
	"testing"
)

// pgbenchCase is one script case of pgbench's own tests
// (src/bin/pgbench/t/001_pgbench_with_server.pl and
// t/002_pgbench_no_server.pl in PostgreSQL's source): a malformed script
// pgbench refuses before connecting, or one it accepts.
type pgbenchCase struct {
	name     string // the file and pgbench's name of the case
	script   string
	flags    string // pgbench options of the case that matter to parsing
	pgbench  string // what pgbench's test looks for on stderr ("" when pgbench's check is not a parse error)
	atParse  bool   // pgbench refuses it before connecting (its exit status 1)
	ours     string // what our error says ("" when we accept the script)
	extended bool   // our refusal is CheckExtended's (the case runs under -M prepared)
	expr     bool   // an error of the expression language: package expr refuses it through Options.ParseExpr
}

// pgbenchDefines are the -D names of 001's error cases.
var pgbenchDefines = []string{"foo", "null", "true", "one", "zero", "badtrue", "maxint", "minint"}

var pgbenchCases = []pgbenchCase{
	// t/002_pgbench_no_server.pl, @script_tests: all refused before connecting.
	{name: "002 missing endif", script: `\if 1`, pgbench: `\\if without matching \\endif`, atParse: true, ours: `^f\.sql:1:1: \\if without matching \\endif`},
	{name: "002 missing if on elif", script: `\elif 1`, pgbench: `\\elif without matching \\if`, atParse: true, ours: `^f\.sql:1:1: \\elif without matching \\if`},
	{name: "002 missing if on else", script: `\else`, pgbench: `\\else without matching \\if`, atParse: true, ours: `^f\.sql:1:1: \\else without matching \\if`},
	{name: "002 missing if on endif", script: `\endif`, pgbench: `\\endif without matching \\if`, atParse: true, ours: `^f\.sql:1:1: \\endif without matching \\if`},
	{name: "002 elif after else", script: "\\if 1\n\\else\n\\elif 0\n\\endif", pgbench: `\\elif after \\else`, atParse: true, ours: `^f\.sql:3:1: \\elif after \\else`},
	{name: "002 else after else", script: "\\if 1\n\\else\n\\else\n\\endif", pgbench: `\\else after \\else`, atParse: true, ours: `^f\.sql:3:1: \\else after \\else`},
	{name: "002 if syntax error", script: "\\if\n\\endif\n", pgbench: `syntax error in command "if"`, atParse: true, ours: `^f\.sql:1:4: syntax error in command "if"`},
	{name: "002 elif syntax error", script: "\\if 0\n\\elif +\n\\endif\n", pgbench: `syntax error in command "elif"`, atParse: true, expr: true},
	{name: "002 else syntax error", script: "\\if 0\n\\else BAD\n\\endif\n", pgbench: `unexpected argument in command "else"`, atParse: true, ours: `^f\.sql:2:7: unexpected argument in command "else"`},
	{name: "002 endif syntax error", script: "\\if 0\n\\endif BAD\n", pgbench: `unexpected argument in command "endif"`, atParse: true, ours: `^f\.sql:2:8: unexpected argument in command "endif"`},
	{name: "002 not enough arguments for least", script: "\\set i least()\n", pgbench: `at least one argument expected \(least\)`, atParse: true, expr: true},
	{name: "002 not enough arguments for greatest", script: "\\set i greatest()\n", pgbench: `at least one argument expected \(greatest\)`, atParse: true, expr: true},
	{name: "002 not enough arguments for hash", script: "\\set i hash()\n", pgbench: `unexpected number of arguments \(hash\)`, atParse: true, expr: true},
	{name: "002 too many arguments for hash", script: "\\set i hash(1,2,3)\n", pgbench: `unexpected number of arguments \(hash\)`, atParse: true, expr: true},
	{name: "002 bigint overflow 1", script: "\\set i 100000000000000000000\n", pgbench: `bigint constant overflow`, atParse: true, expr: true},
	{name: "002 double overflow 2", script: "\\set d 1.0E309\n", pgbench: `double constant overflow`, atParse: true, expr: true},
	{name: "002 double overflow 3", script: "\\set d .1E310\n", pgbench: `double constant overflow`, atParse: true, expr: true},
	{name: "002 set i", script: "\\set i 1 +\n", pgbench: `set i 1 (?s:.*)\^ error found here`, atParse: true, expr: true},
	{name: "002 not enough arguments to permute", script: "\\set i permute(1)\n", pgbench: `unexpected number of arguments \(permute\)`, atParse: true, expr: true},
	{name: "002 too many arguments to permute", script: "\\set i permute(1, 2, 3, 4)\n", pgbench: `unexpected number of arguments \(permute\)`, atParse: true, expr: true},

	// t/001_pgbench_with_server.pl, @errors, run with -M prepared: those of
	// exit status 1 are refused before connecting.
	{name: "001 sql too many args", script: "-- MAX_ARGS=256 for prepared\n\\set i 0\nSELECT LEAST(" + strings.TrimSuffix(strings.Repeat(":i, ", 256), ", ") + ")",
		flags: "-M prepared", pgbench: `statement has too many arguments.*\b255\b`, atParse: true, extended: true, ours: `^f\.sql:3:1034: statement has too many arguments \(maximum is 255\)`},
	{name: "001 shell missing command", script: `\shell`, pgbench: `missing command `, atParse: true, ours: `^f\.sql:1:1: missing command in command "shell"`},
	{name: "001 shell too many args", script: "-- 256 arguments to \\shell\n\\shell echo " + strings.TrimSuffix(strings.Repeat("arg ", 255), " "),
		pgbench: `too many arguments in command "shell"`, atParse: true, ours: `^f\.sql:2:1029: too many arguments in command "shell"`},
	{name: "001 set syntax error", script: `\set i 1 +`, pgbench: `syntax error in command "set"`, atParse: true, expr: true},
	{name: "001 set no such function", script: `\set i noSuchFunction()`, pgbench: `unexpected function name`, atParse: true, expr: true},
	{name: "001 set invalid variable name", script: `\set . 1`, pgbench: `invalid variable name`, ours: `^f\.sql:1:6: invalid variable name "\." in command "set"`},
	{name: "001 set unexpected char", script: `\set i ;`, pgbench: `unexpected character .;.`, atParse: true, expr: true},
	{name: "001 set no expression", script: `\set i`, pgbench: `syntax error`, atParse: true, ours: `^f\.sql:1:7: syntax error in command "set"`},
	{name: "001 set missing argument", script: `\set`, pgbench: `(?i)missing argument`, atParse: true, ours: `^f\.sql:1:1: missing argument in command "set"`},
	{name: "001 set case error", script: `\set i CASE TRUE THEN 1 ELSE 0 END`, pgbench: `syntax error in command "set"`, atParse: true, expr: true},
	{name: "001 set number of args mismatch", script: `\set d ln(1.0, 2.0))`, pgbench: `unexpected number of arguments`, atParse: true, expr: true},
	{name: "001 set at least one arg", script: `\set i greatest())`, pgbench: `at least one argument expected`, atParse: true, expr: true},
	{name: "001 setshell missing arg", script: `\setshell var`, pgbench: `missing argument `, atParse: true, ours: `^f\.sql:1:1: missing argument in command "setshell"`},
	{name: "001 sleep too many args", script: `\sleep too many args`, pgbench: `too many arguments`, atParse: true, ours: `^f\.sql:1:17: too many arguments in command "sleep"`},
	{name: "001 sleep missing arg", script: `\sleep`, pgbench: `missing argument(?s:.*)\\sleep`, atParse: true, ours: `^f\.sql:1:1: missing argument in command "sleep": write \\sleep`},
	{name: "001 sleep unknown unit", script: `\sleep 1 week`, pgbench: `unrecognized time unit`, atParse: true, ours: `^f\.sql:1:10: unrecognized time unit`},
	{name: "001 misc invalid backslash command", script: `\nosuchcommand`, pgbench: `invalid command .* "nosuchcommand"`, atParse: true, ours: `^f\.sql:1:1: invalid command in command "nosuchcommand"`},
	{name: "001 misc empty script", script: ``, pgbench: `empty command list for script`, atParse: true, ours: `^f\.sql:1:1: empty command list for script "f\.sql"`},
	{name: "001 gset alone", script: `\gset`, pgbench: `gset must follow an SQL command`, atParse: true, ours: `^f\.sql:1:1: \\gset must follow an SQL command`},
	{name: "001 gset no SQL", script: "\\set i +1\n\\gset", pgbench: `gset must follow an SQL command`, atParse: true, ours: `^f\.sql:2:1: \\gset must follow an SQL command`},
	{name: "001 gset too many arguments", script: `SELECT 1 \gset a b`, pgbench: `too many arguments`, atParse: true, ours: `^f\.sql:1:18: too many arguments in command "gset"`},
	{name: "001 gset after gset", script: "SELECT 1 AS i \\gset\n\\gset", pgbench: `gset must follow an SQL command`, atParse: true, ours: `^f\.sql:2:1: \\gset must follow an SQL command`},
	// @errors cases pgbench finds only when the script runs, which we
	// refuse before: a misused pipeline (001's three pipeline errors).
	{name: "001 error: call \\startpipeline twice", script: "\n-- startpipeline twice\n\\startpipeline\n\\startpipeline\n", flags: "-M extended", pgbench: `already in pipeline mode`, ours: `^f\.sql:4:1: \\startpipeline: already in pipeline mode`},
	{name: "001 error: \\endpipeline with no start", script: "\n-- pipeline not started\n\\endpipeline\n", flags: "-M extended", pgbench: `not in pipeline mode`, ours: `^f\.sql:3:1: \\endpipeline: not in pipeline mode`},
	{name: "001 error: \\gset not allowed in pipeline mode", script: "\n\\startpipeline\nselect 1 \\gset f\n\\endpipeline\n", flags: "-M extended", pgbench: `gset is not allowed in pipeline mode`, ours: `^f\.sql:3:10: \\gset is not allowed in pipeline mode`},
	// @errors cases that fail only when run, in pgbench and here: the
	// parser accepts them.
	{name: "001 sql syntax error", script: "-- SQL syntax error\n    SELECT 1 + ;\n", flags: "-M prepared", extended: true},
	{name: "001 shell bad command", script: `\shell no-such-command`},
	{name: "001 shell undefined variable", script: "-- undefined variable in shell\n\\shell echo ::foo :nosuchvariable\n"},
	{name: "001 sleep undefined variable", script: `\sleep :nosuchvariable`},
	{name: "001 gset no row", script: `SELECT WHERE FALSE \gset`, flags: "-M prepared", extended: true},
	{name: "001 gset non SELECT", script: `DROP TABLE IF EXISTS no_such_table \gset`, flags: "-M prepared", extended: true},
	{name: "001 gset bad default name", script: `SELECT 1 \gset`, flags: "-M prepared", extended: true},
	{name: "001 gset bad name", script: `SELECT 1 AS "bad name!" \gset`, flags: "-M prepared", extended: true},
	{name: "001 incomplete transaction block", script: `BEGIN;SELECT 1;`},
}

// TestPgbenchCases runs pgbench's script cases through our parser.
func TestPgbenchCases(t *testing.T) {
	for _, c := range pgbenchCases {
		t.Run(c.name, func(t *testing.T) {
			if c.expr {
				// Ours only routes the expression to the hook and reports its
				// error at the command's line: the message is package expr's.
				var got string
				hook := func(src string) (any, error) { got = src; return nil, offsetError{0, "syntax error"} }
				_, err := Parse("f.sql", c.script, Options{ParseExpr: hook})
				if err == nil || !strings.HasPrefix(err.Error(), "f.sql:") || got == "" {
					t.Errorf("the expression did not reach the hook, or its error was lost: %v", err)
				}
				return
			}
			s, err := Parse("f.sql", c.script, testOpts)
			if err == nil && c.extended {
				err = s.CheckExtended(pgbenchDefines)
			}
			switch {
			case c.ours == "" && err != nil:
				t.Errorf("refused: %v; pgbench accepts it before connecting", err)
			case c.ours != "" && err == nil:
				t.Errorf("accepted; want %s", c.ours)
			case c.ours != "" && !regexp.MustCompile(c.ours).MatchString(err.Error()):
				t.Errorf("error %q, want %s", err, c.ours)
			case c.ours != "" && c.pgbench != "" && c.atParse:
				// Where pgbench refuses at parse time, our message says the
				// same thing as pgbench's in substance: the regexp of
				// pgbench's own test matches it too.
				if !regexp.MustCompile(c.pgbench).MatchString(err.Error()) {
					t.Errorf("error %q does not say what pgbench's test looks for: %s", err, c.pgbench)
				}
			}
		})
	}
}
