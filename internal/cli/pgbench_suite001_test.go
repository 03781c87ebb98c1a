package cli

import (
	"net/url"
	"strings"
	"testing"
)

// errorCaseArgs are the options 001_pgbench_with_server.pl runs each of
// its script error cases with.
const errorCaseArgs = "-n -t 1 -Dfoo=bla -Dnull=null -Dtrue=true -Done=1 -Dzero=0.0 -Dbadtrue=trueXXX -Dmaxint=9223372036854775807 -Dminint=-9223372036854775808 -M prepared"

// scriptErrorCases are 001's "trigger many expression errors": status 1
// for a script pgbench refuses before it runs, 2 for one whose client
// aborts (then no transaction is processed).
var scriptErrorCases = []suiteCase{
	{name: "sql syntax error", status: 2, stderr: []string{`ERROR:  syntax error`, `prepared statement .* does not exist`}, files: one("SELECT 1 + ;\n"),
		stderrOwn: "dbgauge's message quotes the server's error as the driver words it (\"syntax error at end of input (SQLSTATE 42601)\"), and it prepares no statement again after a failed prepare"},
	{name: "sql too many args", status: 1, stderr: []string{`statement has too many arguments.*\b255\b`}, files: one("\\set i 0\nSELECT LEAST(" + strings.Repeat(":i, ", 255) + ":i)")},
	{name: "shell bad command", status: 2, stderr: []string{`\(shell\) .* meta-command failed`}, stderrOwn: "dbgauge says shell: could not launch shell command \"no-such-command\": exit status 127",
		files: one(`\shell no-such-command`)},
	{name: "shell undefined variable", status: 2, stderr: []string{`undefined variable ":nosuchvariable"`}, stderrOwn: "dbgauge names the variable without its colon: undefined variable \"nosuchvariable\"",
		files: one("\\shell echo ::foo :nosuchvariable\n")},
	{name: "shell missing command", status: 1, stderr: []string{`missing command `}, files: one(`\shell`)},
	{name: "shell too many args", status: 1, stderr: []string{`too many arguments in command "shell"`}, files: one(`\shell echo ` + strings.TrimSpace(strings.Repeat("arg ", 255)))},
	{name: "set syntax error", status: 1, stderr: []string{`syntax error in command "set"`}, files: one(`\set i 1 +`)},
	{name: "set no such function", status: 1, stderr: []string{`unexpected function name`}, files: one(`\set i noSuchFunction()`)},
	{name: "set invalid variable name", status: 1, peerStatus: 2, differs: refusedEarly, stderr: []string{`invalid variable name`}, files: one(`\set . 1`)},
	{name: "set division by zero", status: 2, stderr: []string{`division by zero`}, files: one(`\set i 1/0`)},
	{name: "set undefined variable", status: 2, stderr: []string{`undefined variable "nosuchvariable"`}, files: one(`\set i :nosuchvariable`)},
	{name: "set unexpected char", status: 1, stderr: []string{`unexpected character .;.`}, files: one(`\set i ;`)},
	{name: "set too many args", status: 2, stderr: []string{`too many function arguments`}, files: one(`\set i least(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)`)},
	{name: "set empty random range", status: 2, stderr: []string{`empty range given to random`}, files: one(`\set i random(5,3)`)},
	{name: "set random range too large", status: 2, stderr: []string{`random range is too large`}, files: one(`\set i random(:minint, :maxint)`)},
	{name: "set gaussian param too small", status: 2, stderr: []string{`gaussian param.* at least 2`}, files: one(`\set i random_gaussian(0, 10, 1.0)`)},
	{name: "set exponential param greater 0", status: 2, stderr: []string{`exponential parameter must be greater `}, files: one(`\set i random_exponential(0, 10, 0.0)`)},
	{name: "set zipfian param to 1", status: 2, stderr: []string{`zipfian parameter must be in range \[1\.001, 1000\]`}, files: one(`\set i random_zipfian(0, 10, 1)`)},
	{name: "set zipfian param too large", status: 2, stderr: []string{`zipfian parameter must be in range \[1\.001, 1000\]`}, files: one(`\set i random_zipfian(0, 10, 1000000)`)},
	{name: "set non numeric value", status: 2, stderr: []string{`malformed variable "foo" value: "bla"`}, files: one(`\set i :foo + 1`)},
	{name: "set no expression", status: 1, stderr: []string{`syntax error`}, files: one(`\set i`)},
	{name: "set missing argument", status: 1, stderr: []string{`(?i)missing argument`}, files: one(`\set`)},
	{name: "set not a bool", status: 2, stderr: []string{`cannot coerce double to boolean`}, files: one(`\set b NOT 0.0`)},
	{name: "set not an int", status: 2, stderr: []string{`cannot coerce boolean to int`}, files: one(`\set i TRUE + 2`)},
	{name: "set not a double", status: 2, stderr: []string{`cannot coerce boolean to double`}, files: one(`\set d ln(TRUE)`)},
	{name: "set case error", status: 1, stderr: []string{`syntax error in command "set"`}, files: one(`\set i CASE TRUE THEN 1 ELSE 0 END`)},
	{name: "set random error", status: 2, stderr: []string{`cannot coerce boolean to int`}, files: one(`\set b random(FALSE, TRUE)`)},
	{name: "set number of args mismatch", status: 1, stderr: []string{`unexpected number of arguments`}, files: one(`\set d ln(1.0, 2.0))`)},
	{name: "set at least one arg", status: 1, stderr: []string{`at least one argument expected`}, files: one(`\set i greatest())`)},
	{name: "set double to int overflow", status: 2, stderr: []string{`double to int overflow for 100`}, files: one(`\set i int(1E32)`)},
	{name: "set bigint add overflow", status: 2, stderr: []string{`int add out`}, files: one(`\set i (1<<62) + (1<<62)`)},
	{name: "set bigint sub overflow", status: 2, stderr: []string{`int sub out`}, files: one(`\set i 0 - (1<<62) - (1<<62) - (1<<62)`)},
	{name: "set bigint mul overflow", status: 2, stderr: []string{`int mul out`}, files: one(`\set i 2 * (1<<62)`)},
	{name: "set bigint div out of range", status: 2, stderr: []string{`bigint div out of range`}, files: one(`\set i :minint / -1`)},
	{name: "setshell not an int", status: 2, stderr: []string{`command must return an integer`}, files: one(`\setshell i echo -n one`)},
	{name: "setshell missing arg", status: 1, stderr: []string{`missing argument `}, files: one(`\setshell var`)},
	{name: "setshell no such command", status: 2, stderr: []string{`could not read result `}, stderrOwn: "dbgauge says setshell: could not launch shell command \"no-such-command\": exit status 127",
		files: one(`\setshell var no-such-command`)},
	{name: "sleep undefined variable", status: 2, stderr: []string{`sleep: undefined variable`}, files: one(`\sleep :nosuchvariable`)},
	{name: "sleep too many args", status: 1, stderr: []string{`too many arguments`}, files: one(`\sleep too many args`)},
	{name: "sleep missing arg", status: 1, stderr: []string{`missing argument`, `\\sleep`}, files: one(`\sleep`)},
	{name: "sleep unknown unit", status: 1, stderr: []string{`unrecognized time unit`}, files: one(`\sleep 1 week`)},
	{name: "misc invalid backslash command", status: 1, stderr: []string{`invalid command .* "nosuchcommand"`}, files: one(`\nosuchcommand`)},
	{name: "misc empty script", status: 1, stderr: []string{`empty command list for script`}, files: one(``)},
	{name: "bad boolean", status: 2, stderr: []string{`malformed variable.*trueXXX`}, files: one(`\set b :badtrue or true`)},
	{name: "invalid permute size", status: 2, stderr: []string{`permute size parameter must be greater than zero`}, files: one(`\set i permute(0, 0)`)},
	{name: "gset no row", status: 2, stderr: []string{`expected one row, got 0\b`}, files: one(`SELECT WHERE FALSE \gset`)},
	{name: "gset alone", status: 1, stderr: []string{`gset must follow an SQL command`}, files: one(`\gset`)},
	{name: "gset no SQL", status: 1, stderr: []string{`gset must follow an SQL command`}, files: one("\\set i +1\n\\gset")},
	{name: "gset too many arguments", status: 1, stderr: []string{`too many arguments`}, files: one(`SELECT 1 \gset a b`)},
	{name: "gset after gset", status: 1, stderr: []string{`gset must follow an SQL command`}, files: one("SELECT 1 AS i \\gset\n\\gset")},
	{name: "gset non SELECT", status: 2, stderr: []string{`expected one row, got 0`}, files: one(`DROP TABLE IF EXISTS no_such_table \gset`)},
	{name: "gset bad default name", status: 2, stderr: []string{`error storing into variable \?column\?`}, files: one(`SELECT 1 \gset`)},
	{name: "gset bad name", status: 2, stderr: []string{`error storing into variable bad name!`}, files: one(`SELECT 1 AS "bad name!" \gset`)},
}

const refusedEarly = "dbgauge refuses the script before the run, naming file:line:col, where pgbench aborts the client when it reaches the command"

// one is a case's one script file.
func one(body string) map[string]string { return map[string]string{"script.sql": body} }

// TestPgbenchSuiteScripts runs 001_pgbench_with_server.pl's script cases
// through dbgauge pgbench on a private PostgreSQL: every script error
// case with pgbench's exit status (and, for a client that aborts, no
// transaction processed), and the working scripts with their report
// lines and debug() values.
func TestPgbenchSuiteScripts(t *testing.T) {
	inst := pgbenchPostgres(t)
	t.Setenv(envPgbenchShell, "1") // the cases run \shell and \setshell, as pgbench does
	var matched, patterns int
	for _, c := range scriptErrorCases {
		c.args = errorCaseArgs
		if c.status == 2 {
			c.stdout = []string{`processed: 0/1`}
		}
		m, n := runSuiteCase(t, c, inst.URL)
		matched, patterns = matched+m, patterns+n
	}
	for _, c := range workingScriptCases {
		m, n := runSuiteCase(t, c, inst.URL)
		matched, patterns = matched+m, patterns+n
	}
	execSQL(t, inst.URL, "CREATE UNLOGGED TABLE first_client_table (value integer)")
	for _, c := range retryCases {
		m, n := runSuiteCase(t, c, inst.URL)
		matched, patterns = matched+m, patterns+n
	}
	for _, c := range databaseCases {
		db := inst.URL
		if c.db != "" {
			u, err := url.Parse(inst.URL)
			if err != nil {
				t.Fatal(err)
			}
			u.Path = "/" + c.db
			db = u.String()
			if c.db != "no-such-database" {
				execSQL(t, inst.URL, "CREATE DATABASE "+c.db)
			}
		}
		m, n := runSuiteCase(t, c.suiteCase, db)
		matched, patterns = matched+m, patterns+n
	}
	t.Logf("001: pgbench's stderr patterns matched by dbgauge's messages: %d of %d", matched, patterns)
}

// databaseCases are 001's cases about the database itself: connecting,
// a database without pgbench's tables, and -i. db names the database
// ("" the one with pgbench's tables).
var databaseCases = []struct {
	suiteCase
	db string
}{
	{suiteCase{name: "no such database", status: 1, stderr: []string{`connection to server .* failed`, `FATAL:  database "no-such-database" does not exist`},
		stderrOwn: "the driver's words: failed to connect to ...: FATAL: database \"no-such-database\" does not exist (SQLSTATE 3D000)"}, "no-such-database"},
	{suiteCase{name: "run without init", args: "-S -t 1", status: 1, stdout: []string{``} /* 001 checks no output */, stderr: []string{`Perhaps you need to do initialization`}}, "noinit"},
	{suiteCase{name: "pgbench scale 1 initialization", args: "-i", stderr: []string{`creating tables`, `vacuuming`, `creating primary keys`, `done in \d+\.\d\d s `}}, "init1"},
	{suiteCase{name: "initialization with all options", status: 1, peerStatus: 0, differs: "dbgauge refuses --tablespace, --index-tablespace and --partitions (§1): exit 1 before anything changes",
		args: "--initialize --init-steps=dtpvg --scale=1 --unlogged-tables --fillfactor=98 --foreign-keys --quiet --tablespace=regress_pgbench_tap_1_ts --index-tablespace=regress_pgbench_tap_1_ts --partitions=2 --partition-method=hash"}, "init2"},
	{suiteCase{name: "pgbench --init-steps", status: 1, peerStatus: 0, differs: "dbgauge refuses --partitions (§1): exit 1 before anything changes",
		args: "--initialize --init-steps=dtpvGvv --no-vacuum --foreign-keys --unlogged-tables --partitions=3"}, "init3"},
	{suiteCase{name: "pgbench --init-steps without partitions", args: "--initialize --init-steps=dtpvGvv --no-vacuum --foreign-keys --unlogged-tables",
		stderr: []string{`dropping old tables`, `creating tables`, `creating primary keys`, `generating data \(server-side\)`, `creating foreign keys`, `done in \d+\.\d\d s `}}, "init4"},
}
