package experiment

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

func runSpeedup(t *testing.T, url string, plan SpeedupPlan) *results.SpeedupResults {
	t.Helper()
	plan.Reps, plan.Seed, plan.Dest = 2, 1, results.DestRelation
	res, err := RunSpeedup(context.Background(), Setup{Dir: filepath.Join(t.TempDir(), "run"), DB: url}, plan, progress.New(nil))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkCounts fails on a point without its timed repetitions or whose
// result relation did not hold the expected cardinality.
func checkCounts(t *testing.T, curves []results.SpeedupCurve, points, reps int) {
	t.Helper()
	for _, c := range curves {
		if len(c.Points) != points {
			t.Fatalf("Q%d %s: %d points, want %d", c.Query, c.Org, len(c.Points), points)
		}
		for _, pt := range c.Points {
			if len(pt.TimesMS) != reps || pt.Rows != c.Expected || pt.Error != "" {
				t.Errorf("Q%d %s x=%d: %d times, %d rows, error %q (want %d times, %d rows)", c.Query, c.Org, pt.X, len(pt.TimesMS), pt.Rows, pt.Error, reps, c.Expected)
			}
		}
	}
}

// PostgreSQL: parallel workers are planned and launched at p=2 and not at
// p=1, and the hash join's batches grow when its memory shrinks.
func TestSpeedupPostgres(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	res := runSpeedup(t, inst.URL, SpeedupPlan{
		Parallelism: []int{1, 2}, Ref: 1, Memory: 64 << 20,
		MemorySweep: []int64{16 << 20, 64 << 10}, SweepP: 1, Size: 10000,
	})
	if !res.Speedup.Applicable {
		t.Fatalf("parallelism on PostgreSQL should be applicable: %+v", res.Speedup)
	}
	checkCounts(t, res.Speedup.Curves, 2, 2)
	launched := false
	for _, c := range res.Speedup.Curves {
		if c.Points[0].WorkersLaunched > 0 {
			t.Errorf("Q%d %s at p=1 launched %d workers", c.Query, c.Org, c.Points[0].WorkersLaunched)
		}
		if c.Points[1].WorkersLaunched > 0 {
			launched = true
		}
		if c.Points[0].Speedup != 1 {
			t.Errorf("Q%d %s: speedup at the reference is %v, want 1", c.Query, c.Org, c.Points[0].Speedup)
		}
	}
	if !launched {
		t.Error("no query launched a parallel worker at p=2")
	}
	checkCounts(t, res.Memory.Curves, 2, 2)
	grew := false
	for _, c := range res.Memory.Curves {
		big, small := c.Points[0].HashBatches, c.Points[1].HashBatches
		if big > 0 && small > big {
			grew = true
		}
	}
	if !grew {
		t.Errorf("no join's hash batches grew from 16 MiB to 64 KiB of work_mem: %+v", res.Memory.Curves)
	}
}

// DuckDB: threads are the parallelism; both points run and are checked.
func TestSpeedupDuckDB(t *testing.T) {
	res := runSpeedup(t, "duckdb:"+filepath.Join(t.TempDir(), "s.duckdb"), SpeedupPlan{
		Parallelism: []int{1, 2}, Ref: 1, Memory: 256 << 20, Size: 1000,
	})
	if !res.Speedup.Applicable {
		t.Fatalf("parallelism on DuckDB should be applicable: %+v", res.Speedup)
	}
	checkCounts(t, res.Speedup.Curves, 2, 2)
}

// Firebird: each page size gets its own database, created with that page
// size and removed afterwards.
func TestSpeedupFirebirdPageSizes(t *testing.T) {
	inst := servertest.Start(t, "firebird", server.Options{})
	res := runSpeedup(t, inst.URL, SpeedupPlan{PageSizes: []int64{4096, 8192}, Size: 1000})
	if !res.PageSize.Applicable {
		t.Fatalf("page sizes on Firebird should be applicable: %+v", res.PageSize)
	}
	checkCounts(t, res.PageSize.Curves, 2, 2)
	for _, c := range res.PageSize.Curves {
		for i, want := range []int64{4096, 8192} {
			if c.Points[i].PageBytes != want {
				t.Errorf("Q%d %s: page %d bytes, want %d", c.Query, c.Org, c.Points[i].PageBytes, want)
			}
		}
	}
}
