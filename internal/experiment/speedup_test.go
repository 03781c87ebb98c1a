package experiment

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

// TestSpeedupSQLite runs the whole command path on SQLite at the smallest
// Wisconsin size: parallelism is recorded as not applicable, the page
// sizes run every query on a database with that page size, and the run
// directory has its results, tables and diagram.
func TestSpeedupSQLite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	plan := SpeedupPlan{Parallelism: []int{1, 2}, Ref: 1, Memory: 1 << 20, PageSizes: []int64{1024, 4096}, Size: 1000, Reps: 2, Seed: 1, Dest: results.DestRelation}
	res, err := RunSpeedup(context.Background(), Setup{Dir: dir}, plan, progress.New(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || res.Speedup == nil || res.Speedup.Applicable || res.Speedup.Reason == "" {
		t.Fatalf("parallelism on SQLite should be recorded as not applicable with a reason: %+v", res.Speedup)
	}
	if len(res.Loads) != 8 {
		t.Errorf("%d loads, want the four relations at each of 2 page sizes (and none in the main database)", len(res.Loads))
	}
	ps := res.PageSize
	if ps == nil || !ps.Applicable {
		t.Fatalf("page sizes on SQLite should be applicable: %+v", ps)
	}
	if len(ps.Curves) != 18 {
		t.Fatalf("%d curves, want 18 (0%%, 1%%, 10%% selection and 3 joins in 3 organisations)", len(ps.Curves))
	}
	for _, c := range ps.Curves {
		if len(c.Points) != 2 {
			t.Fatalf("%s: %d points, want 2", c.Class, len(c.Points))
		}
		for i, pt := range c.Points {
			if pt.PageBytes != plan.PageSizes[i] || pt.X != plan.PageSizes[i] {
				t.Errorf("Q%d %s: point %d has page %d bytes (x %d), want %d", c.Query, c.Org, i, pt.PageBytes, pt.X, plan.PageSizes[i])
			}
			if len(pt.TimesMS) != 2 || pt.Rows != c.Expected {
				t.Errorf("Q%d %s: %d times, %d rows (want 2 times, %d rows)", c.Query, c.Org, len(pt.TimesMS), pt.Rows, c.Expected)
			}
		}
	}
	if ps.Curves[0].Query != 0 || ps.Curves[0].Expected != 0 {
		t.Errorf("the first curve should be the 0%% selection: %+v", ps.Curves[0])
	}
	for _, f := range []string{"results.json", "speedup.txt", "speedup.csv", "pagesize.svg", "pagesize.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("run directory: %v", err)
		}
	}
	for _, sz := range plan.PageSizes {
		if _, err := os.Stat(dbms.PageDBPath(filepath.Join(dir, "speedup.db"), sz)); !os.IsNotExist(err) {
			t.Errorf("the page-size database of %d bytes was not removed (%v)", sz, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var back results.SpeedupResults
	if err := json.Unmarshal(b, &back); err != nil || back.Experiment != "speedup" {
		t.Errorf("results.json does not read back: %v %q", err, back.Experiment)
	}
}

func TestPageDBPath(t *testing.T) {
	if dbms.PageDBPath("/d/x.db", 4096) != "/d/x-page4096.db" {
		t.Errorf("PageDBPath: %s", dbms.PageDBPath("/d/x.db", 4096))
	}
}
