package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/report/htmlreport"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// kvtest is a workload defined in this file only: keys with a counter
// each, read by "get" (three in four transactions) and incremented by
// "put". Registering it here, and nowhere else, must give it the whole
// sweep: population through the bulk path, the clients, the per-type
// commit counts its check needs, results.json, the tables, the diagrams
// and the page.

const (
	kvTable    = "kv_items"
	kvPerScale = 500
	kvGet      = "SELECT v FROM " + kvTable + " WHERE k = ?"
	kvPut      = "UPDATE " + kvTable + " SET v = v + 1 WHERE k = ?"
)

var kvMeta = workload.Meta{Name: "kvtest", Title: "KV test", Description: "a test-only key-value load: get or increment one key",
	New: func() workload.Workload { return kvLoad{} }}

// kvbroken is kvtest whose check after the load finds a violation.
var kvBrokenMeta = workload.Meta{Name: "kvbroken", Description: "kvtest whose check after the load fails",
	New: func() workload.Workload { return kvLoad{broken: true} }}

func init() {
	workload.Register(kvMeta)
	workload.Register(kvBrokenMeta)
}

type kvLoad struct{ broken bool }

func (w kvLoad) Meta() workload.Meta {
	if w.broken {
		return kvBrokenMeta
	}
	return kvMeta
}
func (kvLoad) Scale() workload.Scale { return workload.Scale{Unit: "500 keys", Max: 1000} }
func (kvLoad) Writes() bool          { return true }
func (kvLoad) Types() []workload.Type {
	return []workload.Type{{Name: "get", Weight: 3}, {Name: "put", Weight: 1}}
}

func (kvLoad) Schema(x int64) workload.Schema {
	t := dbms.Table{Name: kvTable, Columns: []dbms.Column{{Name: "k", Type: dbms.Int}, {Name: "v", Type: dbms.BigInt}}}
	return workload.Schema{
		Tables:      []workload.Table{{Table: t, Rows: kvPerScale * x, Fill: func() dbms.RowSource { return &kvRows{n: kvPerScale * x} }}},
		PrimaryKeys: []workload.PrimaryKey{{Table: kvTable, Columns: []string{"k"}}},
	}
}

func (w kvLoad) NewClient(cfg workload.ClientConfig) workload.Client {
	return &kvClient{cfg: cfg, idle: w.broken && cfg.Client > 0}
}

// CountNames: kvtest's clients count the puts of even keys (workload.Counter).
func (kvLoad) CountNames() []string { return []string{"even puts"} }
func (w kvLoad) NewCheck(x int64) workload.Check {
	return &kvCheck{rows: kvPerScale * x, broken: w.broken}
}

// kvRows are keys 1..n with counters at 0.
type kvRows struct{ i, n int64 }

func (r *kvRows) Next(row []any) bool {
	if r.i >= r.n {
		return false
	}
	r.i++
	row[0], row[1] = r.i, int64(0)
	return true
}

type kvClient struct {
	cfg  workload.ClientConfig
	idle bool // kvbroken's clients but the first have nothing to run
	typ  int
	key  int64
}

func (c *kvClient) Setup(ctx context.Context, tx dbms.Transactor) error {
	if !c.cfg.Prepare {
		return nil
	}
	for _, st := range []string{kvGet, kvPut} {
		if err := tx.Prepare(ctx, st); err != nil {
			return err
		}
	}
	return nil
}

func (c *kvClient) Run(ctx context.Context, s *workload.Session) (int, error) {
	if c.idle {
		return 0, workload.ErrIdle
	}
	if s.Attempt == 0 {
		c.typ = 0
		if s.Rand.IntN(4) == 3 {
			c.typ = 1
		}
		c.key = s.Rand.Int64N(kvPerScale*s.Scale) + 1
	}
	if c.typ == 0 {
		_, err := s.Tx.QueryInt(ctx, kvGet, c.key)
		return 0, err
	}
	if err := s.Tx.Begin(ctx, c.cfg.Isolation); err != nil {
		return 1, err
	}
	if n, err := s.Tx.ExecArgs(ctx, kvPut, c.key); err != nil || n != 1 {
		return 1, cmpErr(err, fmt.Errorf("put of key %d updated %d rows", c.key, n))
	}
	err := workload.Commit(ctx, s.Tx)
	if err == nil && c.key%2 == 0 {
		s.Counts[0]++
	}
	return 1, err
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// kvCheck: the counters add up to the puts committed, no more (bar the
// commits in doubt), and no key was lost. Its figures (workload.Figurer):
// puts per minute read from the database, and the share of puts on even
// keys, audited once the scale has 50 puts.
type kvCheck struct {
	rows, sum, count, carried int64
	figs                      []workload.Figure
	puts, even                int64
	broken                    bool
	// loaded and final count the checks after the load and at the end.
	loaded, final int
}

// CheckLoaded: every key is there, at 0 (workload.LoadChecker); kvbroken
// says one is not.
func (c *kvCheck) CheckLoaded(ctx context.Context, e dbms.Engine) ([]string, error) {
	c.loaded++
	if c.broken {
		return []string{"key 7 is not at 0"}, nil
	}
	rows, err := e.QueryRows(ctx, "SELECT COUNT(*) FROM "+kvTable+" WHERE v = 0")
	if err != nil {
		return nil, err
	}
	if rows[0][0] != strconv.FormatInt(c.rows, 10) {
		return []string{fmt.Sprintf("%s keys at 0 after the load, want %d", rows[0][0], c.rows)}, nil
	}
	return nil, nil
}

// CheckFinal: no counter went below 0 (workload.FinalChecker).
func (c *kvCheck) CheckFinal(ctx context.Context, e dbms.Engine) ([]string, error) {
	c.final++
	rows, err := e.QueryRows(ctx, "SELECT COUNT(*) FROM "+kvTable+" WHERE v < 0")
	if err != nil {
		return nil, err
	}
	if rows[0][0] != "0" || c.loaded != 1 || c.final != 1 {
		return []string{fmt.Sprintf("%s counters below 0 (checks after the load %d, final %d)", rows[0][0], c.loaded, c.final)}, nil
	}
	return nil, nil
}

func (c *kvCheck) Figures() []workload.Figure { return c.figs }

func (c *kvCheck) Read(ctx context.Context, e dbms.Engine) error {
	rows, err := e.QueryRows(ctx, "SELECT COALESCE(SUM(v), 0), COUNT(*) FROM "+kvTable)
	if err != nil {
		return err
	}
	if len(rows) != 1 || len(rows[0]) != 2 {
		return fmt.Errorf("kv check: unexpected result %v", rows)
	}
	if c.sum, err = strconv.ParseInt(rows[0][0], 10, 64); err != nil {
		return err
	}
	c.count, err = strconv.ParseInt(rows[0][1], 10, 64)
	return err
}

func (c *kvCheck) Verify(n workload.Commits) []string {
	var bad []string
	want := c.carried + n.ByType[1]
	if c.sum < want || c.sum > want+n.InDoubt {
		bad = append(bad, fmt.Sprintf("the counters sum to %d, but %d puts committed (%d before this cycle, %d in doubt)", c.sum, want, c.carried, n.InDoubt))
	}
	if c.count != c.rows {
		bad = append(bad, fmt.Sprintf("%d keys, want %d", c.count, c.rows))
	}
	perMin := float64(c.sum-c.carried) / n.Elapsed.Minutes()
	c.puts += n.ByType[1]
	c.even += n.Counts[0]
	share := 100 * float64(c.even) / float64(max(c.puts, 1))
	c.figs = []workload.Figure{{Name: "puts per minute (database)", Unit: "/min", Cycle: perMin, Scale: perMin}}
	even := workload.Figure{Name: "even puts", Unit: "%", Cycle: share, Scale: share}
	if c.puts >= 50 {
		lo, hi := 35.0, 65.0
		even.Low, even.High = &lo, &hi
	}
	c.figs = append(c.figs, even)
	c.carried = c.sum
	return bad
}

func (c *kvCheck) Cleanup(context.Context, dbms.Engine) error { return nil }

// TestWorkloadPlugin runs a whole sweep of kvtest on embedded SQLite and
// reads what it stored: the workload named by its registration, its types,
// its own tables only, every scale consistent by its own check (which
// needs the put commits counted apart from the gets), the tables, the
// diagrams and the page.
func TestWorkloadPlugin(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	plan := DSBenchPlan{Mode: "kvtest", Scales: []int64{1, 2}, Cycles: 2, Duration: time.Second, Nodes: 1, Threads: 2, Conns: 1,
		Confidence: []float64{50, 95}, Seed: 1, Prepare: true}
	res, err := RunDSBench(context.Background(), DSBenchSetup{Dir: dir, Version: "test"}, plan, progress.New(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || len(res.Scales) != 2 || res.Form != formStatements {
		t.Fatalf("complete %v, %d scales, form %q: want a complete sweep of 2 scales in the statements form", res.Complete, len(res.Scales), res.Form)
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var stored results.DSBenchResults
	if err := json.Unmarshal(b, &stored); err != nil {
		t.Fatal(err)
	}
	w := stored.Workload
	if stored.Mode != "kvtest" || w == nil || w.Title != "KV test" || !w.Writes || len(w.Types) != 2 || w.Types[1] != (results.WorkloadType{Name: "put", Weight: 1}) {
		t.Errorf("results.json says mode %q, workload %+v: want kvtest described with its two types", stored.Mode, w)
	}
	for _, rg := range stored.Ranges {
		if rg.Name == "collision" {
			t.Errorf("a collision range %+v: kvtest's writes share no row per unit of scale", rg)
		}
	}
	for _, s := range stored.Scales {
		if !s.Consistent || s.Transactions <= 0 || len(s.Cycles) != 2 || s.DBSizeBytes <= 0 {
			t.Errorf("scale %d: consistent %v (%v), %d transactions, %d cycles, %d bytes", s.Scale, s.Consistent, s.Inconsistency, s.Transactions, len(s.Cycles), s.DBSizeBytes)
		}
		// The per-type figures are the workload's types, and add up.
		if len(s.Types) != 2 || s.Types[0].Name != "get" || s.Types[1].Name != "put" {
			t.Errorf("scale %d: per-type figures %+v, want get and put", s.Scale, s.Types)
			continue
		}
		if n := s.Types[0].Count + s.Types[1].Count; n != s.Transactions || s.Types[1].Count <= 0 || s.Types[1].P99MS <= 0 {
			t.Errorf("scale %d: %d gets + %d puts (p99 %g ms) of %d transactions", s.Scale, s.Types[0].Count, s.Types[1].Count, s.Types[1].P99MS, s.Transactions)
		}
		// The workload's own figures: one value per cycle, the database's
		// rate, and the clients' counts summed into an audited share.
		if len(s.Figures) != 2 || s.Figures[0].Name != "puts per minute (database)" || len(s.Figures[0].Cycles) != 2 || s.Figures[0].Scale <= 0 {
			t.Errorf("scale %d: figures %+v, want the database's puts per minute after each of 2 cycles", s.Scale, s.Figures)
			continue
		}
		if ev := s.Figures[1]; ev.Pass == nil || !*ev.Pass || ev.Scale <= 0 || ev.Scale >= 100 {
			t.Errorf("scale %d: even puts %+v: want an audited share within 35..65 %%", s.Scale, ev)
		}
	}
	e, err := dbms.Open(context.Background(), dbms.DefaultSharedURL(filepath.Join(dir, "dsbench.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rows, err := e.QueryRows(context.Background(), "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0][0] != kvTable {
		t.Errorf("the database holds tables %v: want the workload's %s only", rows, kvTable)
	}
	// Both types ran: the last scale's puts moved the counters, and a
	// put is one transaction in four.
	sum, err := e.QueryRows(context.Background(), "SELECT SUM(v) FROM "+kvTable)
	if err != nil {
		t.Fatal(err)
	}
	if puts, _ := strconv.ParseInt(sum[0][0], 10, 64); puts <= 0 || puts >= stored.Scales[1].Transactions {
		t.Errorf("%d puts of %d transactions at scale 2: want some, and fewer than all", puts, stored.Scales[1].Transactions)
	}
	text, err := os.ReadFile(filepath.Join(dir, "results.txt"))
	if err != nil || !strings.Contains(string(text), "mode kvtest") {
		t.Errorf("results.txt does not name the workload (%v):\n%s", err, text)
	}
	for _, f := range []string{"results.csv", "rate.svg", "cycle.svg", "freq.svg", "conf.svg", "residence_scale2.hlog", "per_type.txt", "figures.txt", "figures.csv"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("output %s missing or empty", f)
		}
	}
	page, err := htmlreport.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "DSBENCH stress sweep: KV test on sqlite") {
		t.Errorf("report.html does not title the sweep by its workload")
	}
	if !strings.Contains(string(page), "The workload&#39;s own figures") && !strings.Contains(string(page), "The workload's own figures") {
		t.Errorf("report.html has no section of the workload's figures")
	}
	// A violation right after the load makes the scale inconsistent,
	// named, even though every cycle's check passes.
	bdir := filepath.Join(t.TempDir(), "broken")
	plan.Mode, plan.Scales = "kvbroken", []int64{1}
	bres, err := RunDSBench(context.Background(), DSBenchSetup{Dir: bdir, Version: "test"}, plan, progress.New(nil))
	if bres == nil || len(bres.Scales) != 1 {
		t.Fatalf("kvbroken: %v, %+v", err, bres)
	}
	if s := bres.Scales[0]; s.Consistent || len(s.Inconsistency) != 1 || s.Inconsistency[0] != "after the load: key 7 is not at 0" {
		t.Errorf("kvbroken: consistent %v, %q: want the load check's violation", s.Consistent, s.Inconsistency)
	}
	// kvbroken's second client is idle (workload.ErrIdle): its thread ends
	// each cycle at once, with neither a commit nor a failed trial.
	for _, d := range bres.Scales[0].CycleDetail {
		if d.Thread == 1 && (d.Committed != 0 || d.Failed != 0) || d.Thread == 0 && d.Committed == 0 {
			t.Errorf("kvbroken cycle %d thread %d: %d committed, %d failed: want thread 0 busy, thread 1 idle", d.Cycle, d.Thread, d.Committed, d.Failed)
		}
	}
	if err := CheckAcksPlan("kvtest", "workload", "", true); err == nil || !strings.Contains(err.Error(), "kvtest cannot tag its writes") {
		t.Errorf("--check-acks with a workload that does not tag: %v", err)
	}
}
