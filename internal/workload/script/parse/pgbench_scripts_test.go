package parse

import (
	"strings"
	"testing"
)

// pgbenchScript is a valid script of pgbench's own tests
// (t/001_pgbench_with_server.pl) with what pgbench's run of it shows about
// its commands.
type pgbenchScript struct {
	name   string // pgbench's name of the script
	script string
	flags  string
	shape  string // our commands in brief
	// debug maps pgbench's number of a command (from 1, as its debug()
	// output "command=N" counts) to the expression we must have there:
	// pgbench's test expects "command=N.: int N" of those.
	debug map[int]string
}

var pgbenchScripts = []pgbenchScript{
	{name: "001_pgbench_concurrent_insert", flags: "-M prepared",
		script: "CREATE TYPE pg_temp.e AS ENUM ('l1','l2'); DROP TYPE pg_temp.e;",
		shape:  "SQL SQL"},
	{name: "001_pgbench_custom_script_1", flags: "-M prepared",
		script: "-- select only\n\\set aid random(1, :scale * 100000)\nSELECT abalance::INTEGER AS balance\n  FROM pgbench_accounts\n  WHERE aid=:aid;\n",
		shape:  "set SQL"},
	{name: "001_pgbench_custom_script_2", flags: "-M prepared",
		script: "-- special variables\nBEGIN;\n\\set foo 1\n-- cast are needed for typing under -M prepared\nSELECT :foo::INT + :scale::INT * :client_id::INT AS bla;\nCOMMIT;\n",
		shape:  "SQL set SQL SQL"},
	{name: "001_param_1", flags: "-M prepared",
		script: "select '{ invalid ' as value \\gset\nselect $$'Valame Dios!' dijo Sancho; 'no le dije yo a vuestra merced que mirase bien lo que hacia?'$$ as long \\gset\nselect column1::jsonb from (values (:value), (:long)) as q;\n",
		shape:  "SQL SQL SQL"},
	{name: "001_param_2", flags: "-M prepared",
		script: "select '1' as one \\gset\nSELECT 1 / (random() / 2)::int, :one::int, :two::int;\n",
		shape:  "SQL SQL"},
	{name: "001_param_6", flags: "-M prepared",
		script: "select 42 as value1, '1a' as value2 \\gset\nselect :value1::smallint, :value2::smallint;\n",
		shape:  "SQL SQL"},
	{name: "001_pgbench_random_seed",
		script: "-- test random functions\n\\set ur random(1000, 1999)\n\\set er random_exponential(2000, 2999, 2.0)\n\\set gr random_gaussian(3000, 3999, 3.0)\n\\set zr random_zipfian(4000, 4999, 1.5)\nINSERT INTO seeded_random(seed, rand, val) VALUES\n  (:random_seed, 'uniform', :ur),\n  (:random_seed, 'exponential', :er),\n  (:random_seed, 'gaussian', :gr),\n  (:random_seed, 'zipfian', :zr);\n",
		shape:  "set set set set SQL"},
	{name: "001_pgbench_backslash_commands",
		script: "-- run set\n\\set zero 0\n\\set one 1.0\n-- sleep\n\\sleep :one ms\n\\sleep 100 us\n\\sleep 0 s\n\\sleep :zero\n-- setshell and continuation\n\\setshell another_one\\\n  echo \\\n    :one\n\\set n debug(:another_one)\n-- shell\n\\shell echo shell-echo-output\n",
		shape:  "set set sleep sleep sleep sleep setshell set shell",
		debug:  map[int]string{8: "debug(:another_one)"}},
	{name: "001_pgbench_gset",
		script: "-- test gset\n-- no columns\nSELECT \\gset\n-- one value\nSELECT 0 AS i0 \\gset\n\\set i debug(:i0)\n-- two values\nSELECT 1 AS i1, 2 AS i2 \\gset\n\\set i debug(:i1)\n\\set i debug(:i2)\n-- with prefix\nSELECT 3 AS i3 \\gset x_\n\\set i debug(:x_i3)\n-- overwrite existing variable\nSELECT 0 AS i4, 4 AS i4 \\gset\n\\set i debug(:i4)\n-- work on the last SQL command under \\;\n\\; \\; SELECT 0 AS i5 \\; SELECT 5 AS i5 \\; \\; \\gset\n\\set i debug(:i5)\n",
		shape:  "SQL SQL set SQL set set SQL set SQL set SQL set",
		debug:  map[int]string{3: "debug(:i0)", 5: "debug(:i1)", 6: "debug(:i2)", 8: "debug(:x_i3)", 10: "debug(:i4)", 12: "debug(:i5)"}},
	{name: "001_pgbench_gset_two_rows",
		script: "\nSELECT 5432 AS fail UNION SELECT 5433 ORDER BY 1 \\gset\n",
		shape:  "SQL"},
	{name: "001_pgbench_aset",
		script: "\n-- test aset, which applies to a combined query\n\\; SELECT 6 AS i6 \\; SELECT 7 AS i7 \\; \\aset\n-- unless it returns more than one row, last is kept\nSELECT 8 AS i6 UNION SELECT 9 ORDER BY 1 DESC \\aset\n\\set i debug(:i6)\n\\set i debug(:i7)\n",
		shape:  "SQL SQL set set",
		debug:  map[int]string{3: "debug(:i6)", 4: "debug(:i7)"}},
	{name: "001_pgbench_aset_empty",
		script: "\n-- empty result\n\\; SELECT 5432 AS i8 WHERE FALSE \\; \\aset\n\\set i debug(:i8)\n",
		shape:  "SQL set"},
	{name: "001_pgbench_pipeline", flags: "-M extended",
		script: "\n-- test startpipeline\n\\startpipeline\n" + strings.Repeat("select 1;\n", 10) + "\n\\endpipeline\n",
		shape:  "startpipeline" + strings.Repeat(" SQL", 10) + " endpipeline"},
	{name: "001_pgbench_pipeline_serializable", flags: "-M prepared",
		script: "\n-- test startpipeline with serializable\n\\startpipeline\nBEGIN ISOLATION LEVEL SERIALIZABLE;\n" + strings.Repeat("select 1;\n", 10) + "\nEND;\n\\endpipeline\n",
		shape:  "startpipeline SQL" + strings.Repeat(" SQL", 10) + " SQL endpipeline"},
	{name: "001_pgbench_sleep", script: `\sleep 2ms`, shape: "sleep"},
	{name: "001_pgbench_incomplete_transaction_block", script: "BEGIN;SELECT 1;", shape: "SQL SQL"},
	{name: "001_pgbench_serialization", script: serializationScript, shape: "set SQL SQL SQL SQL SQL SQL"},
	{name: "001_pgbench_expressions", flags: "-D foo=-10.1 -D bla=false -D i=+3 -D n=null -D t=t -D f=of -D d=1.0",
		script: expressionsScript,
		debug: map[int]string{1: "debug(random(10, 19))", 4: "debug(abs(-4))", 12: "debug(64 % (((2 + 1 * 2 + (1 # 2) | 4 * (2 & 11)) - (1 << 2)) + 2))",
			20: "debug(random_zipfian(1, 9, 1.3))", 29: "debug(pow(10,30))", 65: "debug(65)", 74: "debug(74)", 83: "debug(83)", 86: "debug(86)", 93: "debug(93)",
			96: "debug(:scale)", 97: "debug(:client_id)", 98: "debug(:random_seed)", 100: "debug(-(:min + 1))"}},
}

// TestPgbenchScripts parses the valid scripts of pgbench's tests and checks
// that our commands are numbered as pgbench numbers them.
func TestPgbenchScripts(t *testing.T) {
	for _, c := range pgbenchScripts {
		t.Run(c.name, func(t *testing.T) {
			s := mustParse(t, c.script)
			if c.shape != "" && shape(s) != c.shape {
				t.Errorf("shape\n%s\nwant\n%s", shape(s), c.shape)
			}
			for n, expr := range c.debug {
				if n > len(s.Commands) {
					t.Errorf("command %d: the script has %d", n, len(s.Commands))
					continue
				}
				if got := s.Commands[n-1].Expr; got != expr {
					t.Errorf("command %d is %q, want %q", n, got, expr)
				}
			}
			if strings.Contains(c.flags, "-M") {
				var defs []string
				for _, f := range strings.Fields(c.flags) {
					if name, _, ok := strings.Cut(f, "="); ok {
						defs = append(defs, name)
					}
				}
				if err := s.CheckExtended(defs); err != nil && c.name != "001_param_2" {
					t.Errorf("CheckExtended: %v", err)
				}
			}
		})
	}
}

// TestParam2UndefinedVariable: 001_param_2 binds :two, which nothing
// defines; pgbench sends NULL for it (its test expects "$2 = NULL"), we
// refuse it before the run under the bound protocols.
func TestParam2UndefinedVariable(t *testing.T) {
	for _, c := range pgbenchScripts {
		if c.name != "001_param_2" {
			continue
		}
		err := mustParse(t, c.script).CheckExtended(nil)
		if err == nil || !strings.HasPrefix(err.Error(), `t.sql:2:44: undefined variable "two"`) {
			t.Errorf("CheckExtended: %v", err)
		}
	}
}

const serializationScript = `
-- What's happening:
-- The first client starts the transaction with the isolation level Repeatable
-- Read:
--
-- BEGIN;
-- UPDATE xy SET y = ... WHERE x = 1;

\set delta random(-5000, 5000)

-- The second client will stop here
SELECT pg_advisory_lock(0);

-- Start transaction with concurrent update
BEGIN;
UPDATE xy SET y = y + :delta WHERE x = 1 AND pg_advisory_lock(1) IS NOT NULL;

-- Wait for the second client
DO $$
DECLARE
  exists boolean;
  waiters integer;
BEGIN
  -- The second client always comes in second, and the number of rows in the
  -- table first_client_table reflect this. Here the first client inserts a row,
  -- so the second client will see a non-empty table when repeating the
  -- transaction after the serialization error.
  SELECT EXISTS (SELECT * FROM first_client_table) INTO STRICT exists;
  IF NOT exists THEN
	-- Let the second client begin
	PERFORM pg_advisory_unlock(0);
	-- And wait until the second client tries to get the same lock
	LOOP
	  SELECT COUNT(*) INTO STRICT waiters FROM pg_locks WHERE
	  locktype = 'advisory' AND objsubid = 1 AND
	  ((classid::bigint << 32) | objid::bigint = 1::bigint) AND NOT granted;
	  IF waiters = 1 THEN
		INSERT INTO first_client_table VALUES (1);

		-- Exit loop
		EXIT;
	  END IF;
	END LOOP;
  END IF;
END$$;

COMMIT;
SELECT pg_advisory_unlock_all();
`
