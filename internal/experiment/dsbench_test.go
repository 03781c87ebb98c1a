package experiment

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
	"github.com/dbgauge/dbgauge/internal/workload"
	_ "github.com/dbgauge/dbgauge/internal/workload/all" // the workloads the sweeps run
)

// sweep runs a tiny sweep (scale 1, two cycles of one second, two threads)
// and checks the contract of results.json and the outputs.
func sweep(t *testing.T, url, mode, form string, scales ...int64) *results.DSBenchResults {
	return sweepThreads(t, url, mode, form, 2, scales...)
}

func sweepThreads(t *testing.T, url, mode, form string, threads int, scales ...int64) *results.DSBenchResults {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if len(scales) == 0 {
		scales = []int64{1}
	}
	plan := DSBenchPlan{Mode: mode, Form: form, Scales: scales, Cycles: 2, Duration: time.Second, Nodes: 1, Threads: threads, Conns: 1,
		Confidence: []float64{50, 95, 99}, Seed: 1}
	res, err := RunDSBench(context.Background(), DSBenchSetup{DB: url, Dir: dir, Version: "test"}, plan, progress.New(nil))
	if err != nil {
		t.Fatalf("%s %s %s: %v", url, mode, form, err)
	}
	if len(res.Scales) != len(scales) || !res.Complete {
		t.Fatalf("scales %d complete %v", len(res.Scales), res.Complete)
	}
	s := res.Scales[0]
	if !s.Consistent || s.Transactions <= 0 || s.MedianTPS <= 0 || len(s.Cycles) != 2 || s.DBSizeBytes <= 0 || s.F <= 0 || len(s.ConfidenceTPS) != 3 {
		t.Errorf("scale result %+v", s)
	}
	if s.ConfidenceTPS["50"] < s.ConfidenceTPS["99"] {
		t.Errorf("rate at 50%% (%v) below rate at 99%% (%v)", s.ConfidenceTPS["50"], s.ConfidenceTPS["99"])
	}
	var committed int64
	for _, cd := range s.CycleDetail {
		committed += cd.Committed
	}
	if committed != s.Transactions {
		t.Errorf("cycle details sum to %d, transactions %d", committed, s.Transactions)
	}
	for _, f := range []string{"results.txt", "results.csv", "results.json", "results.log", "manifest.json", "journal.jsonl", "rate.svg", "rate.png", "cycle.svg", "freq.svg", "conf.svg", "residence_scale1.hlog"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("output %s missing or empty", f)
		}
	}
	// A server in t.TempDir() runs on this machine: its CPU is known.
	server := url != "" && !strings.HasPrefix(url, "duckdb:") && !strings.HasPrefix(url, "sqlite:")
	for _, s := range res.Scales {
		checkCPU(t, s, server)
	}
	return res
}

func TestDSBenchEmbedded(t *testing.T) {
	sweep(t, "", "tpcb", "") // SQLite in the run directory
	sweep(t, "", "select", "")
	sweep(t, "duckdb:"+filepath.Join(t.TempDir(), "d.duckdb"), "tpcb", "statements")
}

func TestDSBenchServers(t *testing.T) {
	for _, eng := range []string{"postgres", "mariadb", "firebird"} {
		t.Run(eng, func(t *testing.T) {
			inst := servertest.Start(t, eng, server.Options{})
			// Two scales: the second drops the tables the first used.
			if eng == "firebird" {
				// Firebird 3.0.11's PSQL breaks atomicity now and then
				// under update conflicts (tpcb.Procedure.Defect), so its
				// procedure form is not the default; one thread has no
				// conflicts. The default form runs with two below.
				sweepThreads(t, inst.URL, "tpcb", "procedure", 1, 1, 2)
			} else {
				sweep(t, inst.URL, "tpcb", "procedure", 1, 2)
			}
			sweep(t, inst.URL, "tpcb", "statements")
			sweep(t, inst.URL, "select", "")
		})
	}
}

// The consistency check must catch a balance changed behind the
// benchmark's back, on a real engine.
func TestConsistencyCatchesABrokenBalance(t *testing.T) {
	ctx := context.Background()
	e, err := dbms.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	w, err := workload.New("tpcb")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := populate(ctx, e, nil, w, 1, formStatements, progress.New(nil)); err != nil {
		t.Fatal(err)
	}
	ck := w.NewCheck(1)
	if err := ck.Read(ctx, e); err != nil {
		t.Fatal(err)
	}
	if bad := ck.Verify(workload.Commits{}); len(bad) != 0 {
		t.Fatalf("fresh database inconsistent: %v", bad)
	}
	if _, err := e.Exec(ctx, "UPDATE tpcb_tellers SET tbalance = tbalance + 5 WHERE tid = 3"); err != nil {
		t.Fatal(err)
	}
	if err := ck.Read(ctx, e); err != nil {
		t.Fatal(err)
	}
	bad := ck.Verify(workload.Commits{})
	if len(bad) != 2 || !strings.Contains(bad[0], "sum(tbalance) = 5") || !strings.Contains(bad[1], "1 branches") {
		t.Errorf("broken teller balance gave %v", bad)
	}
}
