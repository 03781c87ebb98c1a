package cli

import (
	"strconv"
	"strings"
)

// exprSuiteDebug are the debug() lines 001 requires of that script, as
// "command=N.: VALUE".
var exprSuiteDebug = []string{
	"1.: int 17", "2.: int 104", "3.: int 1498", "4.: int 4", "5.: int 5", "6.: int 6", "7.: int 7", "8.: int 8", "9.: int 9",
	"10.: int 10", "11.: int 11", "12.: int 12", "15.: double 15", "16.: double 16", "17.: double 17", "20.: int 3",
	"21.: double -27", "22.: double 1024", "23.: double 1", "24.: double 1", "25.: double -0.125", "26.: double -0.125",
	"27.: double -0.00032", `28.: double 8.50705917302346e\+0?37`, `29.: double 1e\+0?30`, "30.: boolean false", "31.: boolean true",
	"32.: int 32", "33.: int 33", "34.: double 34", "35.: int 35", "36.: int 36", "37.: double 37", "38.: int 38", "39.: int 39",
	"40.: boolean true", "41.: null", "42.: null", "43.: boolean true", "44.: boolean true", "45.: boolean true", "46.: int 46",
	"47.: boolean true", "48.: boolean true", "49.: int -5817877081768721676", "50.: boolean true", "51.: int -7793829335365542153",
	`52.: int -?\d+`, "53.: boolean true", "65.: int 65", "74.: int 74", "83.: int 83", "86.: int 86", "93.: int 93", "95.: int 0",
	"96.: int 1", "97.: int 0", "98.: int 5432", "99.: int -9223372036854775808", "100.: int 9223372036854775807",
	"101.: boolean true", "102.: boolean true", "103.: boolean true", "104.: boolean true", "105.: boolean true",
	"109.: boolean true", "110.: boolean true", "111.: boolean true", "113.: boolean true",
}

func debugPatterns(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = `command=` + l + `\b`
	}
	return out
}

// workingScriptCases are 001's scripts that run.
var workingScriptCases = []suiteCase{
	{name: "concurrent OID generation", args: "--no-vacuum --client=5 --protocol=prepared --transactions=25", stdout: []string{`processed: 125/125`},
		files: one("CREATE TYPE pg_temp.e AS ENUM (" + enumLabels() + "); DROP TYPE pg_temp.e;")},
	{name: "pgbench tpcb-like", args: "--transactions=5 -Dfoo=bla --client=2 --protocol=simple --builtin=t --connect -n -v -n",
		stdout: []string{`builtin: TPC-B`, `clients: 2\b`, `processed: 10/10`, `mode: simple`, `maximum number of tries: 1`}},
	{name: "pgbench simple update", args: "--transactions=20 --client=5 -M extended --builtin=si -C --no-vacuum -s 1",
		stdout: []string{`builtin: simple update`, `clients: 5\b`, `threads: 1\b`, `processed: 100/100`, `mode: extended`}, stderr: []string{`scale option ignored`}},
	{name: "pgbench select only", args: "-t 100 -c 7 -M prepared -b se --debug",
		stdout:    []string{`builtin: select only`, `clients: 7\b`, `threads: 1\b`, `processed: 700/700`, `mode: prepared`},
		stderr:    []string{`vacuum`, `client 0`, `client 1`, `sending`, `receiving`, `executing`},
		stderrOwn: "-d is taken but dbgauge writes no protocol trace of each client (sending, receiving, executing)"},
	{name: "pgbench custom scripts", args: "-t 100 -c 1 -j 2 -M prepared -n",
		stdout: []string{`type: multiple scripts`, `mode: prepared`, `script 1: .*/001_pgbench_custom_script_1`, `weight: 2`, `script 2: .*/001_pgbench_custom_script_2`, `weight: 1`, `processed: 100/100`},
		files: map[string]string{
			"001_pgbench_custom_script_1@1": "-- select only\n\\set aid random(1, :scale * 100000)\nSELECT abalance::INTEGER AS balance\n  FROM pgbench_accounts\n  WHERE aid=:aid;\n",
			"001_pgbench_custom_script_2@2": "-- special variables\nBEGIN;\n\\set foo 1\n-- cast are needed for typing under -M prepared\nSELECT :foo::INT + :scale::INT * :client_id::INT AS bla;\nCOMMIT;\n",
		}},
	{name: "pgbench custom script simple", args: "-n -t 10 -c 1 -M simple", stdout: []string{`type: .*/001_pgbench_custom_script_3`, `processed: 10/10`, `mode: simple`},
		files: map[string]string{"001_pgbench_custom_script_3": "-- select only variant\n\\set aid random(1, :scale * 100000)\nBEGIN;\nSELECT abalance::INTEGER AS balance\n  FROM pgbench_accounts\n  WHERE aid=:aid;\nCOMMIT;\n"}},
	{name: "pgbench custom script extended", args: "-n -t 10 -c 2 -M extended", stdout: []string{`type: .*/001_pgbench_custom_script_4`, `processed: 20/20`, `mode: extended`},
		files: map[string]string{"001_pgbench_custom_script_4": "-- select only variant\n\\set aid random(1, :scale * 100000)\nBEGIN;\nSELECT abalance::INTEGER AS balance\n  FROM pgbench_accounts\n  WHERE aid=:aid;\nCOMMIT;\n"}},
	{name: "bad parameter at BIND", args: "-n -t1 -c1 -M prepared", status: 2, stderr: []string{`ERROR:  invalid input syntax for type smallint: "1a"`},
		stderrOwn: "the server's error as the driver words it: ERROR: and the message, without pgbench's two spaces and CONTEXT line",
		files:     map[string]string{"001_param_6": "select 42 as value1, '1a' as value2 \\gset\nselect :value1::smallint, :value2::smallint;\n"}},
	{name: "pgbench expressions", args: "--random-seed=5432 -t 1 -Dfoo=-10.1 -Dbla=false -Di=+3 -Dn=null -Dt=t -Df=of -Dd=1.0",
		stdout: []string{`type: .*/001_pgbench_expressions`, `processed: 1/1`},
		stderr: append([]string{`setting random seed to 5432\b`}, debugPatterns(exprSuiteDebug)...),
		files:  map[string]string{"001_pgbench_expressions": "testdata:../../workload/script/parse/testdata/001_pgbench_expressions.sql"}},
	{name: "backslash commands", args: "-t 1", stdout: []string{`type: .*/001_pgbench_backslash_commands`, `processed: 1/1`, `shell-echo-output`},
		stderr: []string{`command=8.: int 1\b`},
		files:  map[string]string{"001_pgbench_backslash_commands": "-- run set\n\\set zero 0\n\\set one 1.0\n-- sleep\n\\sleep :one ms\n\\sleep 100 us\n\\sleep 0 s\n\\sleep :zero\n-- setshell and continuation\n\\setshell another_one\\\n  echo \\\n    :one\n\\set n debug(:another_one)\n-- shell\n\\shell echo shell-echo-output\n"}},
	{name: "gset", args: "-t 1", stdout: []string{`type: .*/001_pgbench_gset`, `processed: 1/1`},
		stderr: debugPatterns([]string{"3.: int 0", "5.: int 1", "6.: int 2", "8.: int 3", "10.: int 4", "12.: int 5"}),
		files:  map[string]string{"001_pgbench_gset": "-- test gset\n-- no columns\nSELECT \\gset\n-- one value\nSELECT 0 AS i0 \\gset\n\\set i debug(:i0)\n-- two values\nSELECT 1 AS i1, 2 AS i2 \\gset\n\\set i debug(:i1)\n\\set i debug(:i2)\n-- with prefix\nSELECT 3 AS i3 \\gset x_\n\\set i debug(:x_i3)\n-- overwrite existing variable\nSELECT 0 AS i4, 4 AS i4 \\gset\n\\set i debug(:i4)\n-- work on the last SQL command under \\;\n\\; \\; SELECT 0 AS i5 \\; SELECT 5 AS i5 \\; \\; \\gset\n\\set i debug(:i5)\n"}},
	{name: "gset two rows", args: "-t 1", status: 2, stdout: []string{`type: .*/001_pgbench_gset_two_rows`, `processed: 0/1`}, stderr: []string{`expected one row, got 2\b`},
		files: map[string]string{"001_pgbench_gset_two_rows": "\nSELECT 5432 AS fail UNION SELECT 5433 ORDER BY 1 \\gset\n"}},
	{name: "aset", args: "-t 1", stdout: []string{`type: .*/001_pgbench_aset`, `processed: 1/1`}, stderr: debugPatterns([]string{"3.: int 8", "4.: int 7"}),
		files: map[string]string{"001_pgbench_aset": "\n-- test aset, which applies to a combined query\n\\; SELECT 6 AS i6 \\; SELECT 7 AS i7 \\; \\aset\n-- unless it returns more than one row, last is kept\nSELECT 8 AS i6 UNION SELECT 9 ORDER BY 1 DESC \\aset\n\\set i debug(:i6)\n\\set i debug(:i7)\n"}},
	{name: "aset empty", args: "-t 1", status: 2, stderrOwn: "dbgauge names the undefined variable and the command, without pgbench's second line (evaluation of meta-command failed)", stdout: []string{`type: .*/001_pgbench_aset_empty`, `processed: 0/1`}, stderr: []string{`undefined variable \"i8\"`, `evaluation of meta-command failed\b`},
		files: map[string]string{"001_pgbench_aset_empty": "\n-- empty result\n\\; SELECT 5432 AS i8 WHERE FALSE \\; \\aset\n\\set i debug(:i8)\n"}},
	{name: "pipeline", args: "-t 1 -n -M extended", stdout: []string{`type: .*/001_pgbench_pipeline`, `actually processed: 1/1`},
		files: map[string]string{"001_pgbench_pipeline": "\n-- test startpipeline\n\\startpipeline\n" + strings.Repeat("select 1;\n", 10) + "\n\\endpipeline\n"}},
	{name: "pipeline prepared", args: "-t 1 -n -M prepared", stdout: []string{`type: .*/001_pgbench_pipeline_prep`, `actually processed: 1/1`},
		files: map[string]string{"001_pgbench_pipeline_prep": "\n-- test startpipeline\n\\startpipeline\n" + strings.Repeat("select 1;\n", 10) + "\n\\endpipeline\n"}},
	{name: "pipeline twice", args: "-t 1 -n -M extended", status: 1, peerStatus: 2, differs: refusedEarly, stderr: []string{`already in pipeline mode`},
		files: map[string]string{"001_pgbench_pipeline_2": "\n-- startpipeline twice\n\\startpipeline\n\\startpipeline\n"}},
	{name: "endpipeline with no start", args: "-t 1 -n -M extended", status: 1, peerStatus: 2, differs: refusedEarly, stderr: []string{`not in pipeline mode`},
		files: map[string]string{"001_pgbench_pipeline_3": "\n-- pipeline not started\n\\endpipeline\n"}},
	{name: "gset in pipeline", args: "-t 1 -n -M extended", status: 1, peerStatus: 2, differs: refusedEarly, stderr: []string{`gset is not allowed in pipeline mode`},
		files: map[string]string{"001_pgbench_pipeline_4": "\n\\startpipeline\nselect 1 \\gset f\n\\endpipeline\n"}},
	{name: "pipeline serializable", args: "-c4 -j2 -t 10 -n -M prepared", stdout: []string{`type: .*/001_pgbench_pipeline_serializable`, `actually processed: (40)/40`},
		files: map[string]string{"001_pgbench_pipeline_serializable": "\n-- test startpipeline with serializable\n\\startpipeline\nBEGIN ISOLATION LEVEL SERIALIZABLE;\n" + strings.Repeat("select 1;\n", 10) + "\nEND;\n\\endpipeline\n"}},
	{name: "throttling", args: "-t 100 -S --rate=100000 --latency-limit=1000000 -c 2 -n -r", stdout: []string{`processed: 200/200`, `builtin: select only`}},
	{name: "late throttling", args: "-t 10 --rate=100000 --latency-limit=1 -n -r", stdout: []string{`processed: [01]/10`, `type: .*/001_pgbench_sleep`, `above the 1.0 ms latency limit: [01]/`},
		files: map[string]string{"001_pgbench_sleep": `\sleep 2ms`}},
}

// enumLabels are 001's thousand enum labels.
func enumLabels() string {
	labels := make([]string, 1000)
	for i := range labels {
		labels[i] = "'l" + strconv.Itoa(i+1) + "'"
	}
	return strings.Join(labels, ",")
}

// deadlockScript is 001's "deadlock with retrying" script: two clients
// take advisory locks in opposite orders, one of them deadlocks and is
// retried.
const deadlockScript = `
SELECT pg_advisory_unlock_all();
SELECT pg_advisory_lock(0);
SELECT pg_advisory_lock(1);
DO $$
DECLARE
  exists boolean;
BEGIN
  SELECT EXISTS (SELECT * FROM first_client_table) INTO STRICT exists;
  IF exists THEN
	PERFORM pg_advisory_unlock(0);
	PERFORM pg_advisory_lock(3);
	PERFORM pg_advisory_lock(2);
  ELSE
	INSERT INTO first_client_table VALUES (1);
	PERFORM pg_advisory_lock(2);
  END IF;
END$$;
DO $$
DECLARE
  num_rows integer;
  waiters integer;
BEGIN
  SELECT COUNT(*) FROM first_client_table INTO STRICT num_rows;
  IF num_rows = 1 THEN
	INSERT INTO first_client_table VALUES (2);
	PERFORM pg_advisory_unlock(0);
	PERFORM pg_advisory_unlock(1);
	LOOP
	  SELECT COUNT(*) INTO STRICT waiters FROM pg_locks WHERE
	  locktype = 'advisory' AND
	  objsubid = 1 AND
	  ((classid::bigint << 32) | objid::bigint = 2::bigint) AND
	  NOT granted;
	  IF waiters = 1 THEN
		EXIT;
	  END IF;
	END LOOP;
	PERFORM pg_advisory_lock(0);
  END IF;
END$$;
SELECT pg_advisory_lock(3);
SELECT pg_advisory_unlock_all();
`

// retryCases are 001's end of script and retry cases; first_client_table
// is made before them.
var retryCases = []suiteCase{
	{name: "incomplete transaction block", args: "--no-vacuum", status: 2, stdout: []string{`processed: 0/10`}, peerStatus: 2,
		differs:   "dbgauge fails the first transaction, whose script ends with its transaction open, and aborts the client (processed: 0/10); pgbench counts that one and aborts when the next one begins (processed: 1/10)",
		stderrOwn: "dbgauge's abort line names the command: client 0 script 0 aborted in command 0 query 0: end of script reached without completing the last transaction",
		stderr:    []string{`client 0 aborted: end of script reached without completing the last transaction`},
		files:     map[string]string{"001_pgbench_incomplete_transaction_block": "BEGIN;SELECT 1;"}},
	{name: "deadlock with retrying", args: "-n -c 2 -t 1 --max-tries 2 --verbose-errors",
		stdout:    []string{`processed: 2/2\b`, `number of transactions retried: 1\b`, `total number of retries: 1\b`},
		stderr:    []string{`client (0|1) got an error in command (3|5) \(SQL\) of script 0; ERROR:  deadlock detected\b`},
		stderrOwn: "--verbose-errors is taken but dbgauge writes no line per retried error",
		files:     map[string]string{"001_pgbench_deadlock": deadlockScript}},
}
