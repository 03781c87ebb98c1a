package experiment

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// abtest on the embedded SQLite with two page-cache settings: both variants
// run every selected Wisconsin query in pairs, warm and cold, with the
// exact cardinality each time, and the run directory holds every output.
func TestABTestSQLiteSessions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	plan := ABTestPlan{
		A:         ABVariantPlan{Session: []string{"PRAGMA cache_size = -2000"}},
		B:         ABVariantPlan{Session: []string{"PRAGMA cache_size = -64000"}},
		Wisconsin: []int{12, 1, 9, 15}, Size: 1000, Reps: 3, Warmup: 1,
		Caches: []string{"warm", "cold"}, Dest: results.DestClient, Level: 0.95, Seed: 1,
	}
	res, err := RunABTest(context.Background(), Setup{Dir: dir, Version: "test"}, plan, progress.New(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || res.Workload != "wisconsin" || len(res.Queries) != 4 || len(res.Loads) != 4 {
		t.Fatalf("complete %v workload %q, %d queries, %d loads", res.Complete, res.Workload, len(res.Queries), len(res.Loads))
	}
	// Heap queries first, then clustered, then non-clustered: the
	// organisations are built once, in order.
	var order []string
	for _, q := range res.Queries {
		order = append(order, q.Label)
	}
	if got := strings.Join(order, " "); got != "Q1 Q9 Q12 Q15" {
		t.Errorf("query order %q, want heap, clustered, non-clustered", got)
	}
	if len(res.Organize) != 2 || res.Organize[0].Organization != "clustered" || res.Organize[1].Organization != "nonclustered" {
		t.Errorf("organise steps %+v", res.Organize)
	}
	want := map[string]int64{"Q1": 10, "Q9": 100, "Q12": 100, "Q15": 100}
	for _, q := range res.Queries {
		if q.ExpectedRows != want[q.Label] || len(q.Runs) != 2 {
			t.Errorf("%s: expected rows %d, %d cache runs", q.Label, q.ExpectedRows, len(q.Runs))
			continue
		}
		for _, run := range q.Runs {
			c := run.Comparison
			if run.Status != results.StatusOK || run.Rows != q.ExpectedRows || len(run.AMS) != 3 || len(run.BMS) != 3 || c == nil {
				t.Errorf("%s %s: status %s %s, rows %d, %d/%d pairs", q.Label, run.Cache, run.Status, run.Reason, run.Rows, len(run.AMS), len(run.BMS))
				continue
			}
			if c.Pairs != 3 || c.Low > c.Factor || c.High < c.Factor || c.Verdict == "" || run.RateAPerS <= 0 {
				t.Errorf("%s %s: comparison %+v", q.Label, run.Cache, c)
			}
		}
	}
	for _, f := range []string{"results.json", "abtest.txt", "abtest.csv", "abtest.svg", "abtest.png", "manifest.json", "journal.jsonl"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	txt, _ := os.ReadFile(filepath.Join(dir, "abtest.txt"))
	for _, s := range []string{"warm_factor", "cold_verdict", "PRAGMA cache_size = -64000", "Q15"} {
		if !strings.Contains(string(txt), s) {
			t.Errorf("abtest.txt lacks %q:\n%s", s, txt)
		}
	}
	// Every timed execution is journalled: 4 queries x 2 caches x 3
	// pairs x 2 variants, plus one warm-up per variant per query.
	j, _ := os.ReadFile(filepath.Join(dir, "journal.jsonl"))
	if n := strings.Count(string(j), `"kind":"pair"`); n != 48 {
		t.Errorf("journal holds %d pair executions, want 48", n)
	}
	if n := strings.Count(string(j), `"kind":"warmup"`); n != 8 {
		t.Errorf("journal holds %d warm-up executions, want 8", n)
	}
	var back results.ABTestResults
	b, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	if err := json.Unmarshal(b, &back); err != nil || back.B.Session[0] != "PRAGMA cache_size = -64000" || back.Queries[0].Runs[0].Comparison == nil {
		t.Errorf("results.json: %v %+v", err, back.B)
	}
}

// --sql on two SQLite files (two URLs): the queries run on each database;
// a query whose row count differs between A and B is a mismatch, kept and
// reported, and the run goes on.
func TestABTestSQLiteURLs(t *testing.T) {
	tmp := t.TempDir()
	dbA, dbB := "sqlite:"+filepath.Join(tmp, "a.db"), "sqlite:"+filepath.Join(tmp, "b.db")
	for i, u := range []string{dbA, dbB} {
		e, err := dbms.Open(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"CREATE TABLE t (k INTEGER)", "INSERT INTO t VALUES (1), (2), (3)"} {
			if _, err := e.Exec(context.Background(), s); err != nil {
				t.Fatal(err)
			}
		}
		if i == 1 {
			e.Exec(context.Background(), "INSERT INTO t VALUES (4)")
		}
		e.Close()
	}
	// Counted inside the engine and stored into a relation: both check
	// the cardinality the same way.
	for _, dest := range []string{results.DestCount, results.DestRelation} {
		dir := filepath.Join(tmp, "run-"+dest)
		plan := ABTestPlan{A: ABVariantPlan{URL: dbA}, B: ABVariantPlan{URL: dbB},
			SQL: []string{"SELECT k FROM t WHERE k < 3", "SELECT k FROM t"}, Reps: 3, Caches: []string{"warm"}, Dest: dest, Level: 0.9, Seed: 1}
		res, err := RunABTest(context.Background(), Setup{Dir: dir, Version: "test"}, plan, progress.New(nil))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Queries) != 2 || res.Workload != "sql" {
			t.Fatalf("%s: %d queries, workload %q", dest, len(res.Queries), res.Workload)
		}
		if r := res.Queries[0].Runs[0]; r.Status != results.StatusOK || r.Rows != 2 {
			t.Errorf("%s: sql 1: %s %s rows %d", dest, r.Status, r.Reason, r.Rows)
		}
		if r := res.Queries[1].Runs[0]; r.Status != results.StatusMismatch || !strings.Contains(r.Reason, "B returned 4 rows, expected 3") {
			t.Errorf("%s: sql 2: %s %q", dest, r.Status, r.Reason)
		}
		// 3 pairs cannot reach p < 0.1 (2/8 at best): too few to judge.
		if v := res.Queries[0].Runs[0].Comparison.Verdict; v != stats.VerdictTooFew {
			t.Errorf("%s: verdict %q, want %q", dest, v, stats.VerdictTooFew)
		}
	}
}

// A session statement that fails is bad input: nothing is left behind.
func TestABTestBadSessionLeavesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	plan := ABTestPlan{A: ABVariantPlan{Session: []string{"PRAGMA cache_size = 1"}}, B: ABVariantPlan{Session: []string{"SELEKT 1"}},
		Wisconsin: []int{9}, Size: 1000, Reps: 3, Caches: []string{"warm"}, Dest: results.DestClient, Level: 0.95}
	if _, err := RunABTest(context.Background(), Setup{Dir: dir, Version: "test"}, plan, progress.New(nil)); err == nil || !strings.Contains(err.Error(), "SELEKT") {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("%s was left behind", dir)
	}
}
