package results_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	_ "github.com/dbgauge/dbgauge/internal/dbms/all"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	_ "github.com/dbgauge/dbgauge/internal/workload/all"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// The fixture is a directory of real runs, one per experiment, on the
// embedded engines at tiny sizes: made once per test binary (it takes
// some seconds) and copied by the tests that change it.
var fixture struct {
	once sync.Once
	root string
	err  error
}

// fixtureRuns names the fixture's run directories by experiment.
var fixtureRuns = map[string]string{
	"wisconsin": "20250101T000001Z-wisconsin",
	"dsbench":   "20250101T000002Z-dsbench",
	"multiuser": "20250101T000003Z-multiuser",
	"sizesweep": "20250101T000004Z-sizesweep",
	"abtest":    "20250101T000005Z-abtest",
	"speedup":   "20250101T000006Z-speedup",
	"storage":   "20250101T000007Z-storage",
	"qac":       "20250101T000008Z-qac",
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fixture.root != "" {
		os.RemoveAll(fixture.root)
	}
	os.Exit(code)
}

// runsFixture returns the fixture's directory (read-only for the caller).
func runsFixture(t *testing.T) string {
	t.Helper()
	fixture.once.Do(func() {
		fixture.root, fixture.err = os.MkdirTemp("", "dbgauge-runs-")
		if fixture.err == nil {
			fixture.err = makeRuns(fixture.root)
		}
	})
	if fixture.err != nil {
		t.Fatalf("making the runs: %v", fixture.err)
	}
	return fixture.root
}

// makeRuns runs every experiment into root.
func makeRuns(root string) error {
	ctx := context.Background()
	pr := progress.New(nil)
	setup := func(exp string) experiment.Setup {
		return experiment.Setup{Dir: filepath.Join(root, fixtureRuns[exp]), Command: []string{"dbgauge", exp, "--test"}, Version: "test"}
	}
	steps := []func() error{
		func() error {
			_, err := experiment.RunWisconsin(ctx, setup("wisconsin"), experiment.WisconsinPlan{Sizes: []int64{1000}, Reps: 3, Orgs: []w.Org{w.Heap},
				Dests: []string{results.DestRelation, results.DestCount}, Queries: []int{1, 2, 3}, Seed: 1}, pr)
			return err
		},
		func() error {
			_, err := experiment.RunDSBench(ctx, setup("dsbench"), experiment.DSBenchPlan{Mode: "tpcb", Form: "statements", Scales: []int64{1, 2},
				Cycles: 3, Duration: 300 * time.Millisecond, Nodes: 1, Threads: 2, Conns: 1, Confidence: []float64{50, 95}, Seed: 1}, pr)
			return err
		},
		func() error {
			_, err := experiment.RunMultiuser(ctx, setup("multiuser"), experiment.MultiuserPlan{Users: []int{0, 1, 2}, Tuples: 1000, Reps: 3,
				Retrieves: 5, RowsPerRetrieve: 1, Seed: 1}, pr)
			return err
		},
		func() error {
			_, err := experiment.RunSizeSweep(ctx, setup("sizesweep"), experiment.SizeSweepPlan{Sizes: []int64{150, 500}, Access: []string{results.AccessNone, results.AccessClustered},
				Retrieve: experiment.RetrieveSingle, Reps: 3, Warmup: 1, Seed: 1}, pr)
			return err
		},
		func() error {
			_, err := experiment.RunABTest(ctx, setup("abtest"), experiment.ABTestPlan{
				A: experiment.ABVariantPlan{Session: []string{"PRAGMA cache_size = -2000"}}, B: experiment.ABVariantPlan{Session: []string{"PRAGMA cache_size = -64000"}},
				Wisconsin: []int{1, 9}, Size: 1000, Reps: 3, Warmup: 1, Caches: []string{"warm"}, Dest: results.DestClient, Level: 0.95, Seed: 1}, pr)
			return err
		},
		func() error {
			// DuckDB: the parallelism part applies (on SQLite it does not).
			s := setup("speedup")
			s.DB = "duckdb:" + filepath.Join(root, "speedup.duckdb")
			_, err := experiment.RunSpeedup(ctx, s, experiment.SpeedupPlan{Parallelism: []int{1, 2}, Ref: 1, Memory: 256 << 20, Size: 1000, Reps: 2,
				Seed: 1, Dest: results.DestRelation}, pr)
			os.Remove(s.DB[len("duckdb:"):])
			return err
		},
		func() error {
			dir, err := os.MkdirTemp("", "dbgauge-storage-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir)
			_, err = experiment.RunStorage(ctx, experiment.StorageSetup{Dir: filepath.Join(root, fixtureRuns["storage"]), Command: []string{"dbgauge", "storage"}, Version: "test"},
				experiment.StoragePlan{Dir: dir, Size: 8 << 20, Duration: 300 * time.Millisecond, Seed: 1}, pr)
			return err
		},
	}
	if os.Geteuid() == 0 {
		// The timing protocol reads /proc and taskstats as root.
		steps = append(steps, func() error {
			_, err := experiment.RunQAC(ctx, setup("qac"), experiment.QACPlan{Wisconsin: 1, Cardinalities: []int64{2000, 4000}, QEs: 4, MaxRestarts: 1, Seed: 1}, pr)
			return err
		})
	} else {
		delete(fixtureRuns, "qac")
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// copyRuns copies the fixture into a new directory the test may change,
// leaving out the engines' database files (not needed by the catalog or
// the exports).
func copyRuns(t *testing.T) string {
	t.Helper()
	src, dst := runsFixture(t), t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if ext := filepath.Ext(p); ext == ".db" || ext == ".duckdb" || ext == ".wal" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, b, 0o644); err != nil {
			return err
		}
		// Keep the times: the catalog tells a changed run by them.
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.Chtimes(target, info.ModTime(), info.ModTime())
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
