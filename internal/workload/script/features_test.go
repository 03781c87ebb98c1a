package script

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload/script/parse"
)

const featureScript = `\set x 10 + :d
SELECT :x * 2 AS y, 7 AS seven \gset
SELECT 1 AS one \; SELECT 2 AS two, 3 AS three \aset p_
SELECT 1 AS none FROM feat WHERE 1 = 0 \aset q_
\if :y > 100
\set branch 1
\elif :p_two = 2
\set branch 2
\sleep 1 us
\sleep :ms ms
\else
\set branch 3
\endif
BEGIN;
INSERT INTO feat (cid, x, y, b) VALUES (:client_id, :x, :y, :branch);
END;
`

// The commands of featureScript by index, as the parser numbers them.
const (
	fSetBranch1 = 5
	fSetBranch2 = 7
	fSleepVar   = 9
	fSetBranch3 = 11
	fInsert     = 14
)

func TestFeatures(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e := openURL(t, ctx, "sqlite:"+filepath.Join(t.TempDir(), "f.db"))
	for _, proto := range []Protocol{Simple, Extended, Prepared} {
		t.Run(proto.String(), func(t *testing.T) {
			if _, err := e.Exec(ctx, "DROP TABLE IF EXISTS feat"); err != nil {
				t.Fatal(err)
			}
			if _, err := e.Exec(ctx, "CREATE TABLE feat (cid INTEGER, x INTEGER, y INTEGER, b INTEGER)"); err != nil {
				t.Fatal(err)
			}
			p := mustProgram(t, Options{Protocol: proto, Defines: []Define{{"d", "5"}, {"ms", "1"}, {"client_id", "42"}}},
				scriptOf(t, "feat.sql", featureScript))
			c := p.Clients(1)[0]
			if err := c.Setup(ctx, e); err != nil {
				t.Fatal(err)
			}
			var rec counter
			if r := c.Run(ctx, &rec); r.Err != nil {
				t.Fatal(r.Err)
			}
			for name, want := range map[string]string{"x": "15", "y": "30", "seven": "7", "p_one": "1", "p_two": "2", "p_three": "3", "branch": "2", "client_id": "42", "d": "5", "scale": "0"} {
				if got, ok := c.Variables().Text(name); got != want {
					t.Errorf(":%s = %q (defined %v), want %q", name, got, ok, want)
				}
			}
			if _, ok := c.Variables().Text("q_none"); ok {
				t.Error("\\aset of an empty result defined :q_none")
			}
			for cmd, want := range map[int]int{fSetBranch1: 0, fSetBranch2: 1, fSleepVar: 1, fSetBranch3: 0, fInsert: 1} {
				if got := rec.get(0, cmd); got != want {
					t.Errorf("command %d recorded %d times, want %d", cmd, got, want)
				}
			}
			row, err := e.QueryRows(ctx, "SELECT cid, x, y, b FROM feat")
			if err != nil {
				t.Fatal(err)
			}
			if len(row) != 1 || strings.Join(row[0], " ") != "42 15 30 2" {
				t.Errorf("inserted %q, want [[42 15 30 2]]", row)
			}
		})
	}
}

// A script that fails as a script (not as the engine's transaction) is
// dbms.Invalid, names its place, and leaves no transaction open.
func TestScriptFailures(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e := openURL(t, ctx, "sqlite:"+filepath.Join(t.TempDir(), "x.db"))
	if _, err := e.Exec(ctx, "CREATE TABLE t (v INTEGER)"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, src, want string
		class           dbms.Class
	}{
		{"open transaction", "BEGIN;\nINSERT INTO t VALUES (1);\n", "open.sql:1:1: BEGIN;: end of script reached without completing the last transaction", dbms.Invalid},
		{"gset no row", "BEGIN;\nSELECT v FROM t WHERE v < 0 \\gset\nEND;\n", "open.sql:2:1: SELECT v FROM t WHERE v < 0 : expected one row, got 0", dbms.Invalid},
		{"gset two rows", "INSERT INTO t VALUES (1);\nINSERT INTO t VALUES (2);\nSELECT v FROM t \\gset\n", "expected one row, got 2", dbms.Invalid},
		{"expression", "\\set x 1 / 0\n", "open.sql:1:1: \\set x 1 / 0: division by zero", dbms.Invalid},
		{"no string in expressions", "\\set s 'x'\n", "", dbms.Other},
		{"engine error", "BEGIN;\nSELECT v FROM missing;\nEND;\n", "open.sql:2:1: SELECT v FROM missing;: no such table: missing", dbms.Other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := parse.Parse("open.sql", tc.src, ParseOptions())
			if tc.want == "" {
				if err == nil {
					t.Fatal("parsed")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			p := mustProgram(t, Options{Protocol: Extended}, Source{Script: s})
			c := p.Clients(1)[0]
			if err := c.Setup(ctx, e); err != nil {
				t.Fatal(err)
			}
			r := c.Run(ctx, nil)
			var re *RunError
			if !errors.As(r.Err, &re) || !strings.Contains(r.Err.Error(), tc.want) {
				t.Fatalf("error %v, want a RunError with %q", r.Err, tc.want)
			}
			if r.Class != tc.class || dbms.Classify(r.Err) != tc.class {
				t.Errorf("class %s (Classify %s), want %s", r.Class, dbms.Classify(r.Err), tc.class)
			}
			if e.(dbms.TextQuerier).InTransaction() {
				t.Error("a transaction is still open")
			}
		})
	}
}

// \shell and \setshell are refused unless allowed, before anything runs,
// naming the file and line; allowed, they run.
func TestShell(t *testing.T) {
	src := "\\set a 41\n\\setshell v echo :a\n\\set w :v + 1\n\\shell true\n"
	s := scriptOf(t, "sh.sql", src)
	_, err := NewProgram([]Source{s}, Options{})
	if err == nil || err.Error() != `sh.sql:2:1: \setshell runs a shell command: allow it with --allow-shell, or remove it` {
		t.Fatalf("refusal: %v", err)
	}
	if _, ok := parse.AsError(err); !ok {
		t.Errorf("refusal %T is no *parse.Error", err)
	}
	ctx := context.Background()
	p := mustProgram(t, Options{AllowShell: true}, s)
	c := p.Clients(1)[0]
	if err := c.Setup(ctx, openURL(t, ctx, "sqlite:"+filepath.Join(t.TempDir(), "s.db"))); err != nil {
		t.Fatal(err)
	}
	if r := c.Run(ctx, nil); r.Err != nil {
		t.Fatal(r.Err)
	}
	if w, _ := c.Variables().Text("w"); w != "42" {
		t.Errorf(":w = %q, want 42 (echo 41, plus one)", w)
	}
}

// A pipeline is refused under the simple protocol when the program is
// built, and on an engine without pipelines before its session runs
// anything, naming the \startpipeline.
func TestPipelineRefused(t *testing.T) {
	src := "\\set a 1\n\\startpipeline\nSELECT :a;\n\\endpipeline\n"
	s := scriptOf(t, "pipe.sql", src)
	if _, err := NewProgram([]Source{s}, Options{Protocol: Simple}); err == nil || !strings.HasPrefix(err.Error(), "pipe.sql:2:1: \\startpipeline: cannot use pipeline mode with the simple query protocol") {
		t.Fatalf("simple protocol: %v", err)
	}
	ctx := context.Background()
	for _, url := range []string{"sqlite:" + filepath.Join(t.TempDir(), "p.db"), "duckdb:" + filepath.Join(t.TempDir(), "p.duckdb")} {
		checkPipelineRefused(t, openURL(t, ctx, url))
	}
}

// checkPipelineRefused checks that e, an engine without pipelines, has a
// script with one refused before anything runs, naming its \startpipeline.
func checkPipelineRefused(t *testing.T, e dbms.Engine) {
	t.Helper()
	s := scriptOf(t, "pipe.sql", "\\set a 1\n\\startpipeline\nSELECT :a;\n\\endpipeline\n")
	p := mustProgram(t, Options{Protocol: Extended}, s)
	want := "pipe.sql:2:1: \\startpipeline: " + e.Name() + " has no pipeline mode"
	if err := p.CheckEngine(e); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%s: %v, want %q...", e.Name(), err, want)
	}
	if err := p.Clients(1)[0].Setup(context.Background(), e); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%s Setup: %v", e.Name(), err)
	}
}

// Under the extended protocol an undefined variable is refused before the
// run; -D defines one.
func TestUndefinedVariable(t *testing.T) {
	s := scriptOf(t, "u.sql", "SELECT :nope;\n")
	if _, err := NewProgram([]Source{s}, Options{Protocol: Prepared}); err == nil || !strings.HasPrefix(err.Error(), `u.sql:1:8: undefined variable "nope"`) {
		t.Fatalf("got %v", err)
	}
	if _, err := NewProgram([]Source{s}, Options{Protocol: Prepared, Defines: []Define{{"nope", "1"}}}); err != nil {
		t.Fatal(err)
	}
}

// A file NAME.ENGINE.sql beside NAME.sql replaces it on that engine.
func TestVariants(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	base := fileSource(t, dir, "bench.sql", "INSERT INTO v VALUES ('base');\n")
	fileSource(t, dir, "bench.sqlite.sql", "INSERT INTO v VALUES ('sqlite');\n")
	fileSource(t, dir, "bench.nosuchengine.sql", "this is no script\n")
	src, err := LoadFile(filepath.Join(dir, "bench.sql@3"))
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Variants) != 1 || src.Variants["sqlite"] == nil || src.Variants["sqlite"].Weight != 3 {
		t.Fatalf("variants %v, want sqlite's with weight 3", src.Variants)
	}
	_ = base
	p := mustProgram(t, Options{}, src)
	for _, engine := range []string{"sqlite", "duckdb"} {
		e := openURL(t, ctx, engine+":"+filepath.Join(dir, "v."+engine))
		if _, err := e.Exec(ctx, "CREATE TABLE v (s VARCHAR(10))"); err != nil {
			t.Fatal(err)
		}
		c := p.Clients(1)[0]
		if err := c.Setup(ctx, e); err != nil {
			t.Fatal(err)
		}
		if r := c.Run(ctx, nil); r.Err != nil {
			t.Fatal(r.Err)
		}
		want := map[string]string{"sqlite": "sqlite", "duckdb": "base"}[engine]
		if got, err := dbms.FirstValue(ctx, e, "SELECT s FROM v"); err != nil || got != want {
			t.Errorf("%s ran %q (%v), want %q", engine, got, err, want)
		}
		if got := p.Scripts(engine)[0].Name; !strings.HasSuffix(got, map[string]string{"sqlite": "bench.sqlite.sql", "duckdb": "bench.sql"}[engine]) {
			t.Errorf("%s script %s", engine, got)
		}
	}
}

// Transaction statements are recognised in their forms, and only those.
func TestControlOf(t *testing.T) {
	for src, want := range map[string]control{
		"BEGIN":                              {kind: ctlBegin},
		"begin work":                         {kind: ctlBegin},
		"START TRANSACTION":                  {kind: ctlBegin},
		"BEGIN ISOLATION LEVEL SERIALIZABLE": {kind: ctlBegin, iso: dbms.Serializable, hasIso: true},
		"start transaction isolation level read\ncommitted": {kind: ctlBegin, iso: dbms.ReadCommitted, hasIso: true},
		"END":                     {kind: ctlCommit},
		"COMMIT WORK":             {kind: ctlCommit},
		"ABORT":                   {kind: ctlRollback},
		"rollback transaction":    {kind: ctlRollback},
		"BEGIN READ ONLY":         {},
		"ROLLBACK TO SAVEPOINT a": {},
		"COMMIT AND CHAIN":        {},
		"START":                   {},
		"ENDX":                    {},
	} {
		s, err := parse.Parse("c.sql", src+";\n", parse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := controlOf(s.Commands[0].SQL.Statements[0]); got != want {
			t.Errorf("%q: %+v, want %+v", src, got, want)
		}
	}
}

// Options a program refuses, naming the option.
func TestOptionsRefused(t *testing.T) {
	s := scriptOf(t, "o.sql", "SELECT 1;\n")
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{MaxTries: -1}, "invalid number of maximum tries: -1"},
		{Options{Defines: []Define{{"1x", "2"}}}, `invalid variable name in -D: "1x"`},
	} {
		if _, err := NewProgram([]Source{s}, tc.opts); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.opts, err, tc.want)
		}
	}
	for _, bad := range []string{"novalue", "1x=2"} {
		if _, err := ParseDefine(bad); err == nil {
			t.Errorf("ParseDefine(%q) accepted it", bad)
		}
	}
	if d, err := ParseDefine("a=b=c"); err != nil || d != (Define{"a", "b=c"}) {
		t.Errorf("ParseDefine(a=b=c) = %+v, %v", d, err)
	}
	if _, err := ParseProtocol("fast"); err == nil {
		t.Error("ParseProtocol(fast) accepted it")
	}
	if p, err := ParseProtocol("prepared"); err != nil || p != Prepared {
		t.Errorf("ParseProtocol(prepared) = %v, %v", p, err)
	}
}
