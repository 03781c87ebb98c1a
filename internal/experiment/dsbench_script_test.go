package experiment

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
	"github.com/dbgauge/dbgauge/internal/stats"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// scriptFiles are a user's workload of three weighted scripts and an init
// script, written where a user keeps them: the init makes a table of
// 10 x :scale accounts (through a per-engine variant on Firebird, which
// has no DROP TABLE IF EXISTS) and records :scale.
var scriptFiles = map[string]string{
	"read.sql": "\\set aid random(1, 10 * :scale)\nSELECT bal FROM sw_acct WHERE aid = :aid;\n",
	"write.sql": "\\set aid random(1, 10 * :scale)\n\\set d random(-5, 5)\nBEGIN;\n" +
		"UPDATE sw_acct SET bal = bal + :d WHERE aid = :aid;\nINSERT INTO sw_log (aid, d) VALUES (:aid, :d);\nCOMMIT;\n",
	"peek.sql": "\\set aid random(1, 10 * :scale)\nSELECT bal AS b FROM sw_acct WHERE aid = :aid \\gset\n" +
		"\\if :b > 1000\nSELECT 1;\n\\else\nSELECT 2;\n\\endif\n",
	// Firebird's SELECT needs a FROM: a variant of the script for it.
	"peek.firebird.sql": "\\set aid random(1, 10 * :scale)\nSELECT bal AS b FROM sw_acct WHERE aid = :aid \\gset\n" +
		"\\if :b > 1000\nSELECT 1 FROM rdb$database;\n\\else\nSELECT 2 FROM rdb$database;\n\\endif\n",
	"init.sql": "DROP TABLE IF EXISTS sw_acct;\nDROP TABLE IF EXISTS sw_log;\nDROP TABLE IF EXISTS sw_meta;\n" +
		initTables,
	"init.firebird.sql": strings.NewReplacer("CREATE TABLE", "RECREATE TABLE").Replace(initTables),
}

const initTables = "CREATE TABLE sw_acct (aid INTEGER PRIMARY KEY, bal INTEGER NOT NULL);\n" +
	"CREATE TABLE sw_log (aid INTEGER NOT NULL, d INTEGER NOT NULL);\n" +
	"CREATE TABLE sw_meta (scale INTEGER NOT NULL);\n" +
	"INSERT INTO sw_meta (scale) VALUES (:scale);\n" +
	"\\set n 10 * :scale\n" +
	"INSERT INTO sw_acct (aid, bal) WITH RECURSIVE r (i) AS (SELECT 1 FROM sw_meta UNION ALL SELECT i + 1 FROM r WHERE i < :n) SELECT i, 0 FROM r;\n"

// scriptOptions writes the files into a directory and reads them as the
// command line does (the workload's Flagger), weights 5, 3 and 2.
func scriptOptions(t *testing.T, maxTries string) json.RawMessage {
	t.Helper()
	dir := t.TempDir()
	for name, text := range scriptFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := workload.New("script")
	if err != nil {
		t.Fatal(err)
	}
	f := w.(workload.Flagger)
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f.Flags(fs)
	args := []string{"--script", filepath.Join(dir, "read.sql") + "@5", "--script", filepath.Join(dir, "write.sql") + "@3",
		"--script", filepath.Join(dir, "peek.sql") + "@2", "--init", filepath.Join(dir, "init.sql"), "--max-tries", maxTries}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	opts, err := f.Options()
	if err != nil {
		t.Fatal(err)
	}
	return opts
}

// scriptSweep sweeps the script workload over scales on url and checks
// what a user reads of it: a type per script with its weight, counts per
// type adding up to the scale's, every type's statements timed, the init
// run at each scale.
func scriptSweep(t *testing.T, url string, cycles int, scales ...int64) *results.DSBenchResults {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	plan := DSBenchPlan{Mode: "script", WorkloadOptions: scriptOptions(t, "3"), Scales: scales, Cycles: cycles, Duration: time.Second,
		Nodes: 1, Threads: 2, Conns: 1, Confidence: []float64{50}, Seed: 1}
	res, err := RunDSBench(context.Background(), DSBenchSetup{DB: url, Dir: dir, Version: "test"}, plan, progress.New(nil))
	if err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	checkScriptResults(t, res, scales)
	if url == "" {
		url = "sqlite:" + filepath.Join(dir, "dsbench.db")
	}
	e, err := dbms.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	// The last scale's init made the tables, with :scale set.
	if rows, err := e.QueryRows(context.Background(), "SELECT scale FROM sw_meta"); err != nil || len(rows) != 1 {
		t.Errorf("sw_meta: %d rows, %v", len(rows), err)
	}
	tx := e.(dbms.Transactor)
	if x, err := tx.QueryInt(context.Background(), "SELECT scale FROM sw_meta"); err != nil || x != scales[len(scales)-1] {
		t.Errorf("the init's :scale = %d (%v), want %d", x, err, scales[len(scales)-1])
	}
	if n, err := tx.QueryInt(context.Background(), "SELECT count(*) FROM sw_acct"); err != nil || n != 10*scales[len(scales)-1] {
		t.Errorf("the init made %d accounts (%v), want %d", n, err, 10*scales[len(scales)-1])
	}
	return res
}

func checkScriptResults(t *testing.T, res *results.DSBenchResults, scales []int64) {
	t.Helper()
	if !res.Complete || len(res.Scales) != len(scales) {
		t.Fatalf("complete %v, %d scales of %d", res.Complete, len(res.Scales), len(scales))
	}
	wantTypes := []results.WorkloadType{{Name: "read", Weight: 5}, {Name: "write", Weight: 3}, {Name: "peek", Weight: 2}}
	if res.Workload == nil || len(res.Workload.Types) != 3 {
		t.Fatalf("workload %+v", res.Workload)
	}
	for i, ty := range res.Workload.Types {
		if ty != wantTypes[i] {
			t.Errorf("type %d = %+v, want %+v", i, ty, wantTypes[i])
		}
	}
	for _, s := range res.Scales {
		if s.Transactions <= 0 || len(s.Types) != 3 {
			t.Fatalf("scale %d: %d transactions, types %+v", s.Scale, s.Transactions, s.Types)
		}
		var sum int64
		for i, ty := range s.Types {
			sum += ty.Count
			if ty.Name != wantTypes[i].Name || ty.Count == 0 {
				t.Errorf("scale %d type %d: %s with %d commits, want %s with some", s.Scale, i, ty.Name, ty.Count, wantTypes[i].Name)
			}
			if len(ty.Statements) == 0 {
				t.Errorf("scale %d type %s: no statements", s.Scale, ty.Name)
			}
		}
		if sum != s.Transactions {
			t.Errorf("scale %d: types add up to %d, transactions %d", s.Scale, sum, s.Transactions)
		}
		if s.DBSizeBytes <= 0 {
			t.Errorf("scale %d: database size %d: the init script's tables were not measured", s.Scale, s.DBSizeBytes)
		}
		weightsFit(t, s, wantTypes)
		read := s.Types[0]
		if len(read.Statements) != 2 || !strings.HasPrefix(read.Statements[1].Name, "2 SELECT bal FROM sw_acct") ||
			read.Statements[1].Count < read.Count {
			t.Errorf("scale %d: read's statements %+v, want \\set and the SELECT run at least %d times", s.Scale, read.Statements, read.Count)
		}
	}
}

// weightsFit: the transactions of each type (committed or failed: each
// is one choice of its script) fit the weights, by the mix test of the
// per-type table (Pearson's chi-square).
func weightsFit(t *testing.T, s results.ScaleResult, types []results.WorkloadType) {
	t.Helper()
	counts, weights := make([]int64, len(s.Types)), make([]int, len(s.Types))
	for i, ty := range s.Types {
		counts[i], weights[i] = ty.Count+ty.Failed, types[i].Weight
	}
	if m, ok := stats.MixTest(counts, weights); !ok || m.P < 1e-4 {
		t.Errorf("scale %d: types %+v do not fit the weights 5:3:2 (%+v)", s.Scale, s.Types, m)
	}
}

func TestDSBenchScriptEmbedded(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { scriptSweep(t, "", 2, 1, 2) })
	t.Run("duckdb", func(t *testing.T) { scriptSweep(t, "duckdb:"+filepath.Join(t.TempDir(), "d.duckdb"), 2, 1, 2) })
}

// TestDSBenchScriptServers: the same scripts on each server engine, one
// short scale (Firebird through its variant of the init script).
func TestDSBenchScriptServers(t *testing.T) {
	for _, eng := range []string{"postgres", "mariadb", "firebird"} {
		t.Run(eng, func(t *testing.T) {
			inst := servertest.Start(t, eng, server.Options{})
			scriptSweep(t, inst.URL, 1, 1)
		})
	}
}
