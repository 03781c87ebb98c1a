package cli

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// pgbench's own test suite (src/bin/pgbench/t/ in PostgreSQL's source),
// its cases that apply to dbgauge pgbench, run through it: each case's
// command line, exit status and the patterns its standard output and
// standard error must show. docs/pgbench.md §6 lists them with the
// outcome and, for each one that differs, why.

// suiteCase is one case: args (the database is added), the script
// files (a body "testdata:PATH" is read from testdata/PATH), the exit status and the patterns. stderrOwn says why dbgauge's
// standard error does not show pgbench's pattern (a message dbgauge words
// itself; the status and standard output still hold); differs, with
// peerStatus pgbench's status, why dbgauge exits otherwise (status is
// then dbgauge's).
type suiteCase struct {
	name       string
	args       string
	files      map[string]string
	status     int
	stdout     []string
	stderr     []string
	stderrOwn  string
	peerStatus int
	differs    string
}

// noServerCases are 002_pgbench_no_server.pl's option errors: pgbench
// refuses each before it connects, with exit status 1 and nothing on
// standard output.
var noServerCases = []suiteCase{
	{name: "bad option", args: "-h home -p 5432 -U calvin -d --bad-option", stderr: []string{`--help.*more information`}},
	{name: "no file", args: "-f no-such-file", stderr: []string{`could not open file "no-such-file":`}},
	{name: "no builtin", args: "-b no-such-builtin", stderr: []string{`no builtin script .* "no-such-builtin"`}},
	{name: "invalid weight", args: "--builtin=select-only@one", stderr: []string{`invalid weight specification: @one`}},
	{name: "invalid weight 2", args: "-b select-only@-1", stderr: []string{`weight spec.* out of range .*: -1`}},
	{name: "too many scripts", args: strings.Repeat("-S ", 129), stderr: []string{`at most 128 SQL scripts`}},
	{name: "bad #clients", args: "-c three", stderr: []string{`invalid value "three" for option -c/--clients`}},
	{name: "bad #threads", args: "-j eleven", stderr: []string{`invalid value "eleven" for option -j/--jobs`}},
	{name: "bad scale", args: "-i -s two", stderr: []string{`invalid value "two" for option -s/--scale`}},
	{name: "invalid #transactions", args: "-t zil", stderr: []string{`invalid value "zil" for option -t/--transactions`}},
	{name: "invalid duration", args: "-T ten", stderr: []string{`invalid value "ten" for option -T/--time`}},
	{name: "-t XOR -T", args: "-N -l --aggregate-interval=5 --log-prefix=notused -t 1000 -T 1", stderr: []string{`specify either `}},
	{name: "-T XOR -t", args: "-P 1 --progress-timestamp -l --sampling-rate=0.001 -T 10 -t 1000", stderr: []string{`specify either `}},
	{name: "bad variable", args: "--define foobla", stderr: []string{`invalid variable definition`}},
	{name: "invalid fillfactor", args: "-F 1", stderr: []string{`-F/--fillfactor must be in range`}},
	{name: "invalid query mode", args: "-M no-such-mode", stderr: []string{`invalid query mode`}},
	{name: "invalid progress", args: "--progress=0", stderr: []string{`-P/--progress must be in range`}},
	{name: "invalid rate", args: "--rate=0.0", stderr: []string{`invalid rate limit`}},
	{name: "invalid latency", args: "--latency-limit=0.0", stderr: []string{`invalid latency limit`}},
	{name: "invalid sampling rate", args: "--sampling-rate=0", stderr: []string{`invalid sampling rate`}},
	{name: "invalid aggregate interval", args: "--aggregate-interval=-3", stderr: []string{`--aggregate-interval must be in range`}},
	{name: "weight zero", args: "-b se@0 -b si@0 -b tpcb@0", stderr: []string{`weight must not be zero`}},
	{name: "init vs run", args: "-i -S", stderr: []string{`cannot be used in initialization`}},
	{name: "run vs init", args: "-S -F 90", stderr: []string{`cannot be used in benchmarking`}},
	{name: "ambiguous builtin", args: "-b s", stderr: []string{`ambiguous`}},
	{name: "--progress-timestamp => --progress", args: "--progress-timestamp", stderr: []string{`allowed only under`}},
	{name: "-I without init option", args: "-I dtg", stderr: []string{`cannot be used in benchmarking mode`}},
	{name: "invalid init step", args: "-i -I dta", stderr: []string{`unrecognized initialization step`, `Allowed step characters are`}},
	{name: "bad random seed", args: "--random-seed=one", stderr: []string{`unrecognized random seed option "one"`, `Expecting an unsigned integer, "time" or "rand"`, `error while setting random seed from --random-seed option`}},
	{name: "bad partition method", args: "-i --partition-method=BAD", stderr: []string{`"range"`, `"hash"`, `"BAD"`}},
	{name: "bad partition number", args: "-i --partitions -1", stderr: []string{`--partitions must be in range`}},
	{name: "partition method without partitioning", args: "-i --partition-method=hash", stderr: []string{`partition-method requires greater than zero --partitions`}},
	{name: "bad maximum number of tries", args: "--max-tries -10", stderr: []string{`invalid number of maximum tries: "-10"`}},
	{name: "an infinite number of tries", args: "--max-tries 0", stderr: []string{`an unlimited number of transaction tries can only be used with --latency-limit or a duration`}},
	{name: "sampling => log", args: "--sampling-rate=0.01", stderr: []string{`log sampling .* only when`}},
	{name: "sampling XOR aggregate", args: "-l --sampling-rate=0.1 --aggregate-interval=3", stderr: []string{`sampling .* aggregation .* cannot be used at the same time`}},
	{name: "aggregate => log", args: "--aggregate-interval=3", stderr: []string{`aggregation .* only when`}},
	{name: "log-prefix => log", args: "--log-prefix=x", stderr: []string{`prefix .* only when`}},
	{name: "duration & aggregation", args: "-l -T 1 --aggregate-interval=3", stderr: []string{`aggr.* not be higher`}},
	{name: "duration % aggregation", args: "-l -T 5 --aggregate-interval=3", stderr: []string{`multiple`}},
	// The script errors pgbench finds when it parses the script.
	{name: "missing endif", files: map[string]string{"if-noendif.sql": `\if 1`}, stderr: []string{`\\if without matching \\endif`}},
	{name: "missing if on elif", files: map[string]string{"elif-noif.sql": `\elif 1`}, stderr: []string{`\\elif without matching \\if`}},
	{name: "missing if on else", files: map[string]string{"else-noif.sql": `\else`}, stderr: []string{`\\else without matching \\if`}},
	{name: "missing if on endif", files: map[string]string{"endif-noif.sql": `\endif`}, stderr: []string{`\\endif without matching \\if`}},
	{name: "elif after else", files: map[string]string{"else-elif.sql": "\\if 1\n\\else\n\\elif 0\n\\endif"}, stderr: []string{`\\elif after \\else`}},
	{name: "else after else", files: map[string]string{"else-else.sql": "\\if 1\n\\else\n\\else\n\\endif"}, stderr: []string{`\\else after \\else`}},
	{name: "if syntax error", files: map[string]string{"if-bad.sql": "\\if\n\\endif\n"}, stderr: []string{`syntax error in command "if"`}},
	{name: "elif syntax error", files: map[string]string{"elif-bad.sql": "\\if 0\n\\elif +\n\\endif\n"}, stderr: []string{`syntax error in command "elif"`}},
	{name: "else syntax error", files: map[string]string{"else-bad.sql": "\\if 0\n\\else BAD\n\\endif\n"}, stderr: []string{`unexpected argument in command "else"`}},
	{name: "endif syntax error", files: map[string]string{"endif-bad.sql": "\\if 0\n\\endif BAD\n"}, stderr: []string{`unexpected argument in command "endif"`}},
	{name: "not enough arguments for least", files: map[string]string{"bad-least.sql": "\\set i least()\n"}, stderr: []string{`at least one argument expected \(least\)`}},
	{name: "not enough arguments for greatest", files: map[string]string{"bad-greatest.sql": "\\set i greatest()\n"}, stderr: []string{`at least one argument expected \(greatest\)`}},
	{name: "not enough arguments for hash", files: map[string]string{"bad-hash-1.sql": "\\set i hash()\n"}, stderr: []string{`unexpected number of arguments \(hash\)`}},
	{name: "too many arguments for hash", files: map[string]string{"bad-hash-2.sql": "\\set i hash(1,2,3)\n"}, stderr: []string{`unexpected number of arguments \(hash\)`}},
	{name: "bigint overflow 1", files: map[string]string{"overflow-1.sql": "\\set i 100000000000000000000\n"}, stderr: []string{`bigint constant overflow`}},
	{name: "double overflow 2", files: map[string]string{"overflow-2.sql": "\\set d 1.0E309\n"}, stderr: []string{`double constant overflow`}},
	{name: "double overflow 3", files: map[string]string{"overflow-3.sql": "\\set d .1E310\n"}, stderr: []string{`double constant overflow`}},
	{name: "set i", files: map[string]string{"set_i_op": "\\set i 1 +\n"}, stderr: []string{`set i 1 `, `\^ error found here`}},
	{name: "not enough arguments to permute", files: map[string]string{"bad-permute-1.sql": "\\set i permute(1)\n"}, stderr: []string{`unexpected number of arguments \(permute\)`}},
	{name: "too many arguments to permute", files: map[string]string{"bad-permute-2.sql": "\\set i permute(1, 2, 3, 4)\n"}, stderr: []string{`unexpected number of arguments \(permute\)`}},
}

// TestPgbenchSuiteNoServer runs 002_pgbench_no_server.pl's cases through
// dbgauge pgbench: each is refused with pgbench's exit status 1 and
// nothing on standard output; how many of pgbench's message patterns
// dbgauge's own messages also match is logged (docs/pgbench.md §6).
func TestPgbenchSuiteNoServer(t *testing.T) {
	var matched, patterns int
	for _, c := range noServerCases {
		c.status = 1
		m, n := runSuiteCase(t, c, "bench")
		matched, patterns = matched+m, patterns+n
	}
	for _, c := range []suiteCase{
		{name: "help", args: "--help", stdout: []string{`Usage`, `pgbench`}},
		{name: "version", args: "-V", stdout: []string{`^pgbench \(`}},
		{name: "builtin list", args: "-b list", stderr: []string{`Available builtin scripts:`, `tpcb-like`, `simple-update`, `select-only`}},
		{name: "builtin listing", args: "--show-script se", stderr: []string{`select-only: `, `SELECT abalance FROM pgbench_accounts WHERE`}},
	} {
		runSuiteCase(t, c, "")
	}
	t.Logf("002: pgbench's stderr patterns matched by dbgauge's messages: %d of %d", matched, patterns)
}

// runSuiteCase runs c with db as the last argument ("" for none) and
// checks its status and standard output, and its standard error unless
// the case words it its own way; it returns how many of the stderr
// patterns matched, of how many.
func runSuiteCase(t *testing.T, c suiteCase, db string) (matched, patterns int) {
	t.Helper()
	args := strings.Fields(c.args)
	if len(c.files) > 0 {
		dir := t.TempDir()
		// In the names' order, as pgbench's test gives its -f options: a
		// map's order would number the scripts differently run to run
		// (script 1 is the first -f), and the report's lines with them.
		for _, name := range slices.Sorted(maps.Keys(c.files)) {
			body := c.files[name]
			if f, ok := strings.CutPrefix(body, "testdata:"); ok {
				b, err := os.ReadFile(filepath.Join("testdata", f))
				if err != nil {
					t.Fatal(err)
				}
				body = string(b)
			}
			file := writeScript(t, dir, strings.Split(name, "@")[0], body)
			args = append(args, "-f", file+weightOf(name))
		}
	}
	if db != "" {
		args = append(args, db)
	}
	code, stdout, stderr, _ := ourPgbench(t, args...)
	if code != c.status {
		t.Errorf("%s: exit %d, want %d\n%s%s", c.name, code, c.status, stdout, stderr)
		return 0, len(c.stderr)
	}
	if c.status == 1 && stdout != "" && len(c.stdout) == 0 {
		t.Errorf("%s: standard output %q, want none", c.name, stdout)
	}
	for _, p := range c.stdout {
		if !regexp.MustCompile(`(?m)` + p).MatchString(stdout) {
			t.Errorf("%s: standard output does not match %s:\n%s", c.name, p, stdout)
		}
	}
	for _, p := range c.stderr {
		ok := regexp.MustCompile(`(?m)` + p).MatchString(stderr)
		if ok {
			matched++
		} else {
			t.Logf("%s: dbgauge's message does not match pgbench's %s: %s", c.name, p, firstLine(stderr))
		}
		if !ok && c.stderrOwn == "" && c.status != 1 {
			t.Errorf("%s: standard error does not match %s:\n%s", c.name, p, stderr)
		}
	}
	return matched, len(c.stderr)
}

func weightOf(name string) string {
	if i := strings.LastIndexByte(name, '@'); i >= 0 {
		return name[i:]
	}
	return ""
}
