package userscript

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/dbms"
	_ "github.com/dbgauge/dbgauge/internal/dbms/all" // the engines the tests open
	"github.com/dbgauge/dbgauge/internal/workload"
)

// configured is a workload configured from files written into a
// directory, through its flags as the command line gives them.
func configured(t *testing.T, files map[string]string, args ...string) *Workload {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, a := range args {
		if strings.HasPrefix(a, "@") { // a file of dir
			args[i] = filepath.Join(dir, a[1:])
		}
	}
	w := &Workload{}
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	w.Flags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	opts, err := w.Options()
	if err != nil {
		t.Fatal(err)
	}
	c := &Workload{}
	if err := c.Configure(opts); err != nil {
		t.Fatal(err)
	}
	return c
}

// The options hold the files' contents (with their variants), so that a
// copy configured from them needs no file; types are named by the files'
// base names made unique, statements by command number and text, per
// engine.
func TestOptionsTypesStatements(t *testing.T) {
	w := configured(t, map[string]string{
		"a/bench.sql":        "SELECT 4;\n",
		"bench.sql":          "\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid AND abalance > 0 AND bid > 0;\n",
		"bench.firebird.sql": "SELECT 1 FROM rdb$database;\n",
		"other.bench.sql":    "SELECT 2;\n",
		"noext":              "SELECT 3;\n",
	}, "--script", "@bench.sql@5", "--script", "@a/bench.sql", "--script", "@other.bench.sql@0", "--script", "@noext", "-D", "x=1")
	var got []string
	for _, ty := range w.Types() {
		got = append(got, ty.Name+"@"+itoa(ty.Weight))
	}
	if strings.Join(got, " ") != "bench@5 bench-2@1 other.bench@0 noext@1" {
		t.Errorf("types %v", got)
	}
	st := w.Statements("sqlite")
	if len(st) != 4 || len(st[0]) != 2 || st[0][0] != "1 \\set aid random(1, 100000 * :scale)" ||
		st[0][1] != "2 SELECT abalance FROM pgbench_accounts ..." {
		t.Errorf("statements on sqlite %q", st)
	}
	if fb := w.Statements("firebird"); len(fb[0]) != 1 || fb[0][0] != "1 SELECT 1 FROM rdb$database;" {
		t.Errorf("statements on firebird %q: want its variant's", fb)
	}
	if !w.Writes() {
		t.Error("Writes() = false: a user's SQL may write")
	}
	var o Options
	if err := json.Unmarshal(w.optsJSON(t), &o); err != nil {
		t.Fatal(err)
	}
	if len(o.Scripts) != 4 || !strings.Contains(o.Scripts[0].Text, "pgbench_accounts") || o.Scripts[0].Variants["firebird"].Text != "SELECT 1 FROM rdb$database;\n" ||
		o.Protocol != "prepared" || o.MaxTries != 1 || len(o.Defines) != 1 {
		t.Errorf("options %+v", o)
	}
}

func (w *Workload) optsJSON(t *testing.T) []byte {
	b, err := json.Marshal(w.opts)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func itoa(n int) string { return strconv.Itoa(n) }

// recorded is a statement timer that keeps what it was handed.
type recorded struct{ stmts []int }

func (r *recorded) Statement(i int, _ time.Duration) { r.stmts = append(r.stmts, i) }

// session is a workload session on e.
func session(e dbms.Engine, timer workload.StatementTimer) *workload.Session {
	return &workload.Session{Tx: e.(dbms.Transactor), Engine: e, Timer: timer}
}

func open(t *testing.T) dbms.Engine {
	t.Helper()
	e, err := dbms.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// intVar is client c's variable name after its last transaction.
func intVar(t *testing.T, c workload.Client, name string) int64 {
	t.Helper()
	v, ok := c.(*client).sc.Variables().Lookup(name)
	if !ok {
		t.Fatalf("no variable %s", name)
	}
	n, ok := v.Int()
	if !ok {
		t.Fatalf("%s = %s, not an integer", name, v.Text())
	}
	return n
}

// A client's :client_id is its number over the whole load and :scale the
// scale measured; :default_seed is one value for all clients of a scale;
// the same client of the same seed draws the same numbers in a new run,
// another client others; the driver's retry (Attempt > 0) reruns the
// script from its start, every statement timed by command.
func TestClientSeedsAndRetry(t *testing.T) {
	w := configured(t, map[string]string{"s.sql": "\\set r random(1, 1000000000)\n\\set c :client_id\n\\set x :scale\n\\set d :default_seed\n"}, "--script", "@s.sql")
	ctx := context.Background()
	e := open(t)
	run := func(w *Workload, cfg workload.ClientConfig, attempt int, timer workload.StatementTimer) workload.Client {
		c := w.NewClient(cfg)
		if err := c.Setup(ctx, e.(dbms.Transactor)); err != nil {
			t.Fatal(err)
		}
		s := session(e, timer)
		s.Attempt = attempt
		if _, err := c.Run(ctx, s); err != nil {
			t.Fatal(err)
		}
		return c
	}
	cfg := workload.ClientConfig{Client: 5, Clients: 8, Scale: 3, Seed: 42, Retry: true}
	rec := &recorded{}
	a := run(w, cfg, 0, rec)
	if intVar(t, a, "c") != 5 || intVar(t, a, "x") != 3 {
		t.Errorf(":client_id %d, :scale %d: want 5 and 3", intVar(t, a, "c"), intVar(t, a, "x"))
	}
	if len(rec.stmts) != 4 || rec.stmts[3] != 3 {
		t.Errorf("statements timed %v, want the four commands", rec.stmts)
	}
	again := run(configured(t, map[string]string{"s.sql": "\\set r random(1, 1000000000)\n\\set c :client_id\n\\set x :scale\n\\set d :default_seed\n"}, "--script", "@s.sql"), cfg, 0, nil)
	if intVar(t, again, "r") != intVar(t, a, "r") {
		t.Errorf("the same client of the same seed drew %d, then %d in a new run", intVar(t, a, "r"), intVar(t, again, "r"))
	}
	other := cfg
	other.Client = 6
	b := run(w, other, 0, nil)
	if intVar(t, b, "r") == intVar(t, a, "r") {
		t.Errorf("clients 5 and 6 drew the same %d", intVar(t, a, "r"))
	}
	if intVar(t, b, "d") != intVar(t, a, "d") {
		t.Errorf(":default_seed %d and %d: want one per scale", intVar(t, a, "d"), intVar(t, b, "d"))
	}

	// The driver's retry: the same draw again; the next transaction a
	// new one.
	s := session(e, nil)
	first := intVar(t, a, "r")
	s.Attempt = 1
	if _, err := a.Run(ctx, s); err != nil || intVar(t, a, "r") != first {
		t.Errorf("retry drew %d (%v), want %d again", intVar(t, a, "r"), err, first)
	}
	s.Attempt = 0
	if _, err := a.Run(ctx, s); err != nil || intVar(t, a, "r") == first {
		t.Errorf("next transaction drew %d (%v), want a new number", intVar(t, a, "r"), err)
	}
}

// The hot path allocates nothing: a transaction of meta-commands through
// the workload's client, its commands timed.
func TestClientAllocations(t *testing.T) {
	w := configured(t, map[string]string{"m.sql": "\\set a random(1, 1000000)\n\\if :a > 10\n\\set b :a * 2\n\\else\n\\set b 0\n\\endif\n"}, "--script", "@m.sql")
	ctx := context.Background()
	e := open(t)
	c := w.NewClient(workload.ClientConfig{Clients: 1, Scale: 1})
	if err := c.Setup(ctx, e.(dbms.Transactor)); err != nil {
		t.Fatal(err)
	}
	var timer countTimer
	s := session(e, &timer)
	if n := testing.AllocsPerRun(200, func() { c.Run(ctx, s) }); n != 0 {
		t.Errorf("%.1f allocations a transaction, want none", n)
	}
	if timer == 0 {
		t.Error("no statement timed")
	}
}

type countTimer int

func (c *countTimer) Statement(int, time.Duration) { *c++ }

// The init script runs at each scale with :scale set, under the simple
// protocol (the variable's value in DDL).
func TestInit(t *testing.T) {
	w := configured(t, map[string]string{"s.sql": "SELECT 1;\n",
		"init.sql": "DROP TABLE IF EXISTS t_:scale;\nCREATE TABLE t_:scale (x INTEGER);\nINSERT INTO t_:scale VALUES (:scale);\n"},
		"--script", "@s.sql", "--init", "@init.sql")
	ctx := context.Background()
	e := open(t)
	for _, x := range []int64{2, 7} {
		if err := w.Init(ctx, e, x); err != nil {
			t.Fatal(err)
		}
		if n, err := e.(dbms.Transactor).QueryInt(ctx, "SELECT x FROM t_"+itoa(int(x))); err != nil || n != x {
			t.Errorf("scale %d: the init stored %d (%v)", x, n, err)
		}
	}
}

// TestSizeTables: the tables the init script creates (its engine's
// variant), in order, each once; none whose name is made of variables.
func TestSizeTables(t *testing.T) {
	w := configured(t, map[string]string{"s.sql": "SELECT 1;\n",
		"init.sql": "DROP TABLE IF EXISTS a;\ncreate table a (x INTEGER);\nCREATE UNLOGGED TABLE IF NOT EXISTS b(y INT);\n" +
			"CREATE TABLE t_:scale (x INTEGER);\nCREATE INDEX i ON a (x);\nCREATE TABLE a (z INT);\n",
		"init.firebird.sql": "RECREATE TABLE fb_a (x INTEGER);\n"},
		"--script", "@s.sql", "--init", "@init.sql")
	if got := strings.Join(w.SizeTables("sqlite"), ","); got != "a,b" {
		t.Errorf("sqlite: %q, want a,b", got)
	}
	if got := strings.Join(w.SizeTables("firebird"), ","); got != "fb_a" {
		t.Errorf("firebird: %q, want fb_a", got)
	}
	if got := (&Workload{}).SizeTables("sqlite"); got != nil {
		t.Errorf("without an init script: %q", got)
	}
}
