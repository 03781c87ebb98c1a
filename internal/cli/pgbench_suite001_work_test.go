package cli

import (
	"strconv"
	"strings"
)

// exprSuiteScript is 001's "pgbench expressions" script.
const exprSuiteScript = `-- integer functions
\set i1 debug(random(10, 19))
\set i2 debug(random_exponential(100, 199, 10.0))
\set i3 debug(random_gaussian(1000, 1999, 10.0))
\set i4 debug(abs(-4))
\set i5 debug(greatest(5, 4, 3, 2))
\set i6 debug(11 + least(-5, -4, -3, -2))
\set i7 debug(int(7.3))
-- integer arithmetic and bit-wise operators
\set i8 debug(17 / (4|1) + ( 4 + (7 >> 2)))
\set i9 debug(- (3 * 4 - (-(~ 1) + -(~ 0))) / -1 + 3 % -1)
\set ia debug(10 + (0 + 0 * 0 - 0 / 1))
\set ib debug(:ia + :scale)
\set ic debug(64 % (((2 + 1 * 2 + (1 # 2) | 4 * (2 & 11)) - (1 << 2)) + 2))
-- double functions and operators
\set d1 debug(sqrt(+1.5 * 2.0) * abs(-0.8E1))
\set d2 debug(double(1 + 1) * (-75.0 / :foo))
\set pi debug(pi() * 4.9)
\set d4 debug(greatest(4, 2, -1.17) * 4.0 * Ln(Exp(1.0)))
\set d5 debug(least(-5.18, .0E0, 1.0/0) * -3.3)
-- reset variables
\set i1 0
\set d1 false
-- yet another integer function
\set id debug(random_zipfian(1, 9, 1.3))
--- pow and power
\set poweri debug(pow(-3,3))
\set powerd debug(pow(2.0,10))
\set poweriz debug(pow(0,0))
\set powerdz debug(pow(0.0,0.0))
\set powernegi debug(pow(-2,-3))
\set powernegd debug(pow(-2.0,-3.0))
\set powernegd2 debug(power(-5.0,-5.0))
\set powerov debug(pow(9223372036854775807, 2))
\set powerov2 debug(pow(10,30))
-- comparisons and logical operations
\set c0 debug(1.0 = 0.0 and 1.0 != 0.0)
\set c1 debug(0 = 1 Or 1.0 = 1)
\set c4 debug(case when 0 < 1 then 32 else 0 end)
\set c5 debug(case when true then 33 else 0 end)
\set c6 debug(case when false THEN -1 when 1 = 1 then 13 + 19 + 2.0 end )
\set c7 debug(case when (1 > 0) and (1 >= 0) and (0 < 1) and (0 <= 1) and (0 != 1) and (0 = 0) and (0 <> 1) then 35 else 0 end)
\set c8 debug(CASE \
                WHEN (1.0 > 0.0) AND (1.0 >= 0.0) AND (0.0 < 1.0) AND (0.0 <= 1.0) AND \
                     (0.0 != 1.0) AND (0.0 = 0.0) AND (0.0 <> 1.0) AND (0.0 = 0.0) \
                  THEN 36 \
                  ELSE 0 \
              END)
\set c9 debug(CASE WHEN NOT FALSE THEN 3 * 12.3333334 END)
\set ca debug(case when false then 0 when 1-1 <> 0 then 1 else 38 end)
\set cb debug(10 + mod(13 * 7 + 12, 13) - mod(-19 * 11 - 17, 19))
\set cc debug(NOT (0 > 1) AND (1 <= 1) AND NOT (0 >= 1) AND (0 < 1) AND \
    NOT (false and true) AND (false OR TRUE) AND (NOT :f) AND (NOT FALSE) AND \
    NOT (NOT TRUE))
-- NULL value and associated operators
\set n0 debug(NULL + NULL * exp(NULL))
\set n1 debug(:n0)
\set n2 debug(NOT (:n0 IS NOT NULL OR :d1 IS NULL))
\set n3 debug(:n0 IS NULL AND :d1 IS NOT NULL AND :d1 NOTNULL)
\set n4 debug(:n0 ISNULL AND NOT :n0 IS TRUE AND :n0 IS NOT FALSE)
\set n5 debug(CASE WHEN :n IS NULL THEN 46 ELSE NULL END)
-- use a variables of all types
\set n6 debug(:n IS NULL AND NOT :f AND :t)
-- conditional truth
\set cs debug(CASE WHEN 1 THEN TRUE END AND CASE WHEN 1.0 THEN TRUE END AND CASE WHEN :n THEN NULL ELSE TRUE END)
-- hash functions
\set h0 debug(hash(10, 5432))
\set h1 debug(:h0 = hash_murmur2(10, 5432))
\set h3 debug(hash_fnv1a(10, 5432))
\set h4 debug(hash(10))
\set h5 debug(hash(10) = hash(10, :default_seed))
-- lazy evaluation
\set zy 0
\set yz debug(case when :zy = 0 then -1 else (1 / :zy) end)
\set yz debug(case when :zy = 0 or (1 / :zy) < 0 then -1 else (1 / :zy) end)
\set yz debug(case when :zy > 0 and (1 / :zy) < 0 then (1 / :zy) else 1 end)
-- substitute variables of all possible types
\set v0 NULL
\set v1 TRUE
\set v2 5432
\set v3 -54.21E-2
SELECT :v0, :v1, :v2, :v3;
-- if tests
\set nope 0
\if 1 > 0
\set id debug(65)
\elif 0
\set nope 1
\else
\set nope 1
\endif
\if 1 < 0
\set nope 1
\elif 1 > 0
\set ie debug(74)
\else
\set nope 1
\endif
\if 1 < 0
\set nope 1
\elif 1 < 0
\set nope 1
\else
\set if debug(83)
\endif
\if 1 = 1
\set ig debug(86)
\elif 0
\set nope 1
\endif
\if 1 = 0
\set nope 1
\elif 1 <> 0
\set ih debug(93)
\endif
-- must be zero if false branches where skipped
\set nope debug(:nope)
-- check automatic variables
\set sc debug(:scale)
\set ci debug(:client_id)
\set rs debug(:random_seed)
-- minint constant parsing
\set min debug(-9223372036854775808)
\set max debug(-(:min + 1))
-- parametric pseudorandom permutation function
\set t debug(permute(0, 2) + permute(1, 2) = 1)
\set t debug(permute(0, 3) + permute(1, 3) + permute(2, 3) = 3)
\set t debug(permute(0, 4) + permute(1, 4) + permute(2, 4) + permute(3, 4) = 6)
\set t debug(permute(0, 5) + permute(1, 5) + permute(2, 5) + permute(3, 5) + permute(4, 5) = 10)
\set t debug(permute(0, 16) + permute(1, 16) + permute(2, 16) + permute(3, 16) + \
             permute(4, 16) + permute(5, 16) + permute(6, 16) + permute(7, 16) + \
             permute(8, 16) + permute(9, 16) + permute(10, 16) + permute(11, 16) + \
             permute(12, 16) + permute(13, 16) + permute(14, 16) + permute(15, 16) = 120)
-- random sanity checks
\set size random(2, 1000)
\set v random(0, :size - 1)
\set p permute(:v, :size)
\set t debug(0 <= :p and :p < :size and :p = permute(:v + :size, :size) and :p <> permute(:v + 1, :size))
-- actual values
\set t debug(permute(:v, 1) = 0)
\set t debug(permute(0, 2, 5431) = 0 and permute(1, 2, 5431) = 1 and \
             permute(0, 2, 5433) = 1 and permute(1, 2, 5433) = 0)
-- check permute's portability across architectures
\set size debug(:max - 10)
\set t debug(permute(:size-1, :size, 5432) = 520382784483822430 and \
             permute(:size-2, :size, 5432) = 1143715004660802862 and \
             permute(:size-3, :size, 5432) = 447293596416496998 and \
             permute(:size-4, :size, 5432) = 916527772266572956 and \
             permute(:size-5, :size, 5432) = 2763809008686028849 and \
             permute(:size-6, :size, 5432) = 8648551549198294572 and \
             permute(:size-7, :size, 5432) = 4542876852200565125)
`

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
		files:  map[string]string{"001_pgbench_expressions": exprSuiteScript}},
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
