package script

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	_ "github.com/dbgauge/dbgauge/internal/dbms/all"
	"github.com/dbgauge/dbgauge/internal/workload/script/parse"
)

// pgbench's tables, small: scale 1 has one branch and ten tellers as
// pgbench's; accounts holds only the first n of its 100000 accounts (an
// update of a missing one changes nothing, and the check below counts
// only the history of accounts that exist).
var pgbenchTables = []dbms.Table{
	{Name: "pgbench_branches", Columns: []dbms.Column{{Name: "bid", Type: dbms.Int}, {Name: "bbalance", Type: dbms.Int}, {Name: "filler", Type: dbms.Char, Len: 88}}},
	{Name: "pgbench_tellers", Columns: []dbms.Column{{Name: "tid", Type: dbms.Int}, {Name: "bid", Type: dbms.Int}, {Name: "tbalance", Type: dbms.Int}, {Name: "filler", Type: dbms.Char, Len: 84}}},
	{Name: "pgbench_accounts", Columns: []dbms.Column{{Name: "aid", Type: dbms.Int}, {Name: "bid", Type: dbms.Int}, {Name: "abalance", Type: dbms.Int}, {Name: "filler", Type: dbms.Char, Len: 84}}},
	{Name: "pgbench_history", Columns: []dbms.Column{{Name: "tid", Type: dbms.Int}, {Name: "bid", Type: dbms.Int}, {Name: "aid", Type: dbms.Int}, {Name: "delta", Type: dbms.Int}, {Name: "mtime", Type: dbms.Timestamp}, {Name: "filler", Type: dbms.Char, Len: 22}}},
}

type genRows struct {
	i, n int64
	fill func(row []any, i int64)
}

func (g *genRows) Next(row []any) bool {
	if g.i >= g.n {
		return false
	}
	g.i++
	g.fill(row, g.i)
	return true
}

// createPgbench (re)creates pgbench's tables at scale 1 with accounts
// accounts, through the engine's bulk path.
func createPgbench(t *testing.T, ctx context.Context, e dbms.Engine, accounts int64) {
	t.Helper()
	fills := map[string]*genRows{
		"pgbench_branches": {n: 1, fill: func(r []any, i int64) { r[0], r[1], r[2] = i, int64(0), "" }},
		"pgbench_tellers":  {n: 10, fill: func(r []any, i int64) { r[0], r[1], r[2], r[3] = i, int64(1), int64(0), "" }},
		"pgbench_accounts": {n: accounts, fill: func(r []any, i int64) { r[0], r[1], r[2], r[3] = i, int64(1), int64(0), "" }},
	}
	for _, tb := range pgbenchTables {
		if err := e.DropTable(ctx, tb.Name); err != nil {
			t.Fatal(err)
		}
		if err := e.CreateTable(ctx, tb); err != nil {
			t.Fatalf("create %s: %v", tb.Name, err)
		}
		if g, ok := fills[tb.Name]; ok {
			if _, err := e.Load(ctx, tb, g); err != nil {
				t.Fatalf("load %s: %v", tb.Name, err)
			}
		}
	}
	if err := e.CreateIndex(ctx, "pgbench_accounts", "pgbench_accounts_aid", "aid", dbms.BTree, true); err != nil {
		t.Fatal(err)
	}
}

func intValue(t *testing.T, ctx context.Context, e dbms.Engine, q string) int64 {
	t.Helper()
	v, err := dbms.FirstValue(ctx, e, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		t.Fatalf("%s: %q: %v", q, v, err)
	}
	return n
}

// checkTPCB checks what every committed tpcb-like transaction keeps: the
// branches, the tellers and the history move by the same deltas, and each
// existing account by its own history's; and that history holds want rows.
func checkTPCB(t *testing.T, ctx context.Context, e dbms.Engine, accounts, want int64) {
	t.Helper()
	h := intValue(t, ctx, e, "SELECT COUNT(*) FROM pgbench_history")
	if h != want {
		t.Errorf("history has %d rows, want %d (one per committed tpcb-like transaction)", h, want)
	}
	sums := map[string]int64{
		"branches": intValue(t, ctx, e, "SELECT COALESCE(SUM(bbalance), 0) FROM pgbench_branches"),
		"tellers":  intValue(t, ctx, e, "SELECT COALESCE(SUM(tbalance), 0) FROM pgbench_tellers"),
		"history":  intValue(t, ctx, e, "SELECT COALESCE(SUM(delta), 0) FROM pgbench_history"),
	}
	if sums["branches"] != sums["history"] || sums["tellers"] != sums["history"] {
		t.Errorf("balances disagree: %v", sums)
	}
	acc := intValue(t, ctx, e, "SELECT COALESCE(SUM(abalance), 0) FROM pgbench_accounts")
	hist := intValue(t, ctx, e, "SELECT COALESCE(SUM(delta), 0) FROM pgbench_history WHERE aid <= "+strconv.FormatInt(accounts, 10))
	if acc != hist {
		t.Errorf("accounts sum %d, their history %d", acc, hist)
	}
}

// counter is a Recorder that counts the commands recorded.
type counter struct {
	mu sync.Mutex
	n  map[[2]int]int
}

func (c *counter) Command(script, command int, elapsed time.Duration) {
	if elapsed < 0 {
		panic("negative elapsed time")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[[2]int]int{}
	}
	c.n[[2]int{script, command}]++
}

func (c *counter) get(script, command int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[[2]int{script, command}]
}

// run runs n transactions on each of the program's clients, one session
// each (opened by open), in parallel, and returns every result by client.
func run(t *testing.T, ctx context.Context, p *Program, clients, n int, open func() dbms.Engine, rec Recorder) [][]Result {
	t.Helper()
	cs := p.Clients(clients)
	out := make([][]Result, clients)
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i, c := range cs {
		e := open()
		if err := c.Setup(ctx, e); err != nil {
			t.Fatalf("setup: %v", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < n; k++ {
				out[i] = append(out[i], c.Run(ctx, rec))
			}
		}()
	}
	wg.Wait()
	close(errs)
	return out
}

// mustProgram builds a program of the given sources.
func mustProgram(t *testing.T, opts Options, srcs ...Source) *Program {
	t.Helper()
	p, err := NewProgram(srcs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func builtin(t *testing.T, spec string) Source {
	t.Helper()
	s, err := LoadBuiltin(spec)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fileSource writes src as name in a temporary directory and loads it.
func fileSource(t *testing.T, dir, name, src string) Source {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func scriptOf(t *testing.T, name, src string) Source {
	t.Helper()
	s, err := parse.Parse(name, src, ParseOptions())
	if err != nil {
		t.Fatal(err)
	}
	return Source{Script: s}
}

func openURL(t *testing.T, ctx context.Context, url string) dbms.Engine {
	t.Helper()
	e, err := dbms.Open(ctx, url)
	if err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}
