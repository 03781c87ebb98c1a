package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// userScripts writes a user's two scripts and init script into dir and
// returns the flags that run them.
func userScripts(t *testing.T, dir string) []string {
	t.Helper()
	args, err := writeUserScripts(dir)
	if err != nil {
		t.Fatal(err)
	}
	return args
}

// writeUserScripts is userScripts for a fault row's arguments, made where
// no test is at hand.
func writeUserScripts(dir string) ([]string, error) {
	files := []struct{ name, text string }{
		{"read.sql", "\\set aid random(1, 10 * :scale)\nSELECT bal FROM us_acct WHERE aid = :aid;\n"},
		{"write.sql", "\\set aid random(1, 10 * :scale)\nBEGIN;\nUPDATE us_acct SET bal = bal + 1 WHERE aid = :aid;\nCOMMIT;\n"},
		{"init.sql", "DROP TABLE IF EXISTS us_acct;\nCREATE TABLE us_acct (aid INTEGER PRIMARY KEY, bal INTEGER NOT NULL);\n" +
			"INSERT INTO us_acct (aid, bal) WITH RECURSIVE r (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 10 * :scale) SELECT i, 0 FROM r;\n"},
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.text), 0o644); err != nil {
			return nil, err
		}
	}
	return []string{"--workload", "script", "--script", filepath.Join(dir, "read.sql") + "@3", "--script", filepath.Join(dir, "write.sql"),
		"--init", filepath.Join(dir, "init.sql")}, nil
}

// scriptTypes are what results.json says of a script run's types.
type scriptTypes struct {
	Workload struct {
		Types []struct {
			Name   string `json:"name"`
			Weight int    `json:"weight"`
		} `json:"types"`
	} `json:"workload"`
	Scales []struct {
		Transactions int64                 `json:"transactions"`
		Types        []results.TypeFigures `json:"types"`
	} `json:"scales"`
}

// TestResumeDSBenchScript: a sweep of a user's scripts killed after its
// first scale, its script files then deleted, resumes from the second
// scale with the scripts the run stored: every scale has both types,
// counts adding up.
func TestResumeDSBenchScript(t *testing.T) {
	tmp := t.TempDir()
	scripts := filepath.Join(tmp, "scripts")
	os.Mkdir(scripts, 0o755)
	dir := filepath.Join(tmp, "killed")
	args := append([]string{"dsbench", "--scales", "1,2", "--cycles", "2", "--duration", "1s", "--threads", "2", "--seed", "7", "--out", dir}, userScripts(t, scripts)...)
	killAt(t, args, "scale 1      median")
	if err := os.RemoveAll(scripts); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runBinary(t, "resume", dir)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "scale 1      complete before the run was resumed: kept") || !strings.Contains(stderr, "scale 2      populated") {
		t.Errorf("resume did not keep scale 1 and populate scale 2 again:\n%s", stderr)
	}
	got := readJSON[scriptTypes](t, filepath.Join(dir, results.ResultsFile))
	if len(got.Workload.Types) != 2 || got.Workload.Types[0].Name != "read" || got.Workload.Types[0].Weight != 3 || got.Workload.Types[1].Name != "write" {
		t.Errorf("types %+v, want read@3 and write@1", got.Workload.Types)
	}
	if len(got.Scales) != 2 {
		t.Fatalf("%d scales, want 2", len(got.Scales))
	}
	for i, s := range got.Scales {
		var sum int64
		for _, ty := range s.Types {
			sum += ty.Count
		}
		if len(s.Types) != 2 || sum != s.Transactions || s.Transactions == 0 {
			t.Errorf("scale %d: %d transactions, types %+v", i+1, s.Transactions, s.Types)
		}
	}
	onceEach(t, dir, 2)
}

// TestScriptSweepOnAgents: a user's scripts run by three remote agents
// (dbgauge agent) against one SQLite file: the master's per-type figures
// are the agents' merged, the types adding up to the scale's
// transactions, each type's statements timed, and the nodes' counts
// adding up too.
func TestScriptSweepOnAgents(t *testing.T) {
	tmp := t.TempDir()
	scripts := filepath.Join(tmp, "scripts")
	os.Mkdir(scripts, 0o755)
	db := "sqlite:" + filepath.Join(tmp, "agents.db")
	_, s := threeAgentScale(t, db, userScripts(t, scripts)...)
	var sum int64
	for _, ty := range s.Types {
		sum += ty.Count
		var stmts int64
		for _, st := range ty.Statements {
			stmts += st.Count
		}
		if ty.Count == 0 || len(ty.Statements) == 0 || stmts < ty.Count {
			t.Errorf("type %s: %d commits, statements %+v: want commits and every statement timed", ty.Name, ty.Count, ty.Statements)
		}
	}
	if len(s.Types) != 2 || sum != s.Transactions {
		t.Errorf("types %+v add up to %d, the scale's transactions are %d", s.Types, sum, s.Transactions)
	}
	if len(s.NodeRates) != 3 {
		t.Errorf("node rates %+v, want the three agents'", s.NodeRates)
	}
}

// TestOrdersSweepOnAgents: the order-entry workload from 3 remote agents
// on 3 warehouses (each agent's terminals on a warehouse of their own):
// the per-type counts the agents sent add up to the scale's transactions,
// every condition holds, and the new orders the clients counted are the
// ones the database entered (NOPM read from it equals the clients' own).
func TestOrdersSweepOnAgents(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "orders.db") + "?_journal_mode=WAL"
	res, s := threeAgentScale(t, db, "--workload", "orders", "--scales", "3", "--retry")
	if !s.Consistent {
		t.Errorf("inconsistent: %v", s.Inconsistency)
	}
	var sum int64
	for _, ty := range s.Types {
		sum += ty.Count
	}
	if len(s.Types) != 5 || sum != s.Transactions || s.Types[0].Count == 0 {
		t.Errorf("types %+v add up to %d, the scale's transactions are %d", s.Types, sum, s.Transactions)
	}
	// Every type's 90th percentile is judged against its limit, read
	// from the agents' merged histograms.
	for _, ty := range s.Types {
		l, want := ty.Limit, 5000.0
		if ty.Name == "stock-level" {
			want = 20000
		}
		if l == nil || l.Percentile != 90 || l.MaxMS != want || l.ValueMS <= 0 || l.Pass != (l.ValueMS <= l.MaxMS) {
			t.Errorf("%s: limit %+v: want the 90th percentile measured against %g ms", ty.Name, l, want)
		}
	}
	figs := map[string]float64{}
	for _, f := range s.Figures {
		figs[f.Name] = f.Scale
	}
	db0, cl := figs["NOPM (database)"], figs["new orders per minute (clients)"]
	if db0 <= 0 || db0 != cl {
		t.Errorf("NOPM %g from the database, %g from the clients' counts: want equal and above 0 (figures %+v)", db0, cl, s.Figures)
	}
	if res.Workload == nil || res.Workload.Variant != "no waits" {
		t.Errorf("workload %+v: want the variant named", res.Workload)
	}
}

// threeAgentScale runs a sweep of one scale from three agents on db (extra
// arguments to dsbench), which must succeed, and returns its results and
// that scale, whose counts from the agents must add up.
func threeAgentScale(t *testing.T, db string, extra ...string) (results.DSBenchResults, results.ScaleResult) {
	t.Helper()
	sw := startAgentSweep(t, db, 3, []string{"a1", "a2", "a3"}, extra...)
	sw.succeeded(t, sw.agents["a1"], sw.agents["a2"], sw.agents["a3"])
	res := sw.results(t)
	if len(res.Scales) != 1 {
		t.Fatalf("%d scales, want 1", len(res.Scales))
	}
	countsAddUp(t, res.Scales[0])
	return res, res.Scales[0]
}
