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

// sizesweep on SQLite: every size (150 is cut from a generated 200) under
// every access method is timed reps times with checked cardinalities, the
// methods use the access paths they are named for, the analysis is
// complete, the run directory holds its files and the tables are gone.
func TestSizeSweepSQLite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	plan := SizeSweepPlan{Sizes: []int64{150, 500, 1000, 2000}, Access: []string{results.AccessNone, results.AccessClustered, results.AccessNonClustered},
		Retrieve: RetrieveSingle, Reps: 3, Warmup: 1, Seed: 1}
	res, err := RunSizeSweep(context.Background(), Setup{Dir: dir, Version: "test"}, plan, progress.New(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || len(res.Points) != 12 || len(res.Loads) != 4 {
		t.Fatalf("complete %v, %d points, %d loads", res.Complete, len(res.Points), len(res.Loads))
	}
	if res.Loads[0].Size != 200 {
		t.Errorf("size 150 cut from a load of %d, want 200", res.Loads[0].Size)
	}
	for _, p := range res.Points {
		if p.Summary.N != 3 || len(p.Keys) != 3 || p.Summary.Mean <= 0 || p.ExpectedRows != 1 {
			t.Errorf("N=%d %s: %+v", p.Size, p.Access, p)
		}
		for _, k := range p.Keys {
			if k < 0 || k >= p.Size {
				t.Errorf("N=%d %s: key %d outside 0..%d", p.Size, p.Access, k, p.Size-1)
			}
		}
		want := map[string]string{results.AccessNone: "SCAN", results.AccessClustered: "SEARCH", results.AccessNonClustered: "USING INDEX"}[p.Access]
		if !strings.Contains(p.Plan, want) {
			t.Errorf("N=%d %s: plan %q lacks %q", p.Size, p.Access, p.Plan, want)
		}
	}
	a := res.Analysis
	if a == nil || a.NoIndexFit == nil || a.NoIndexFit.N != 4 || len(a.Flatness) != 2 || len(a.Predictions) != 3 ||
		a.NonClusteredOverClustered == nil || len(a.NonClusteredOverClustered.Sizes) != 4 {
		t.Fatalf("analysis %+v", a)
	}
	if a.Predictions[0].Size != 2000 || a.Predictions[0].Fit.N != 3 || a.Predictions[0].MeasuredMS != res.Points[9].Summary.Mean {
		t.Errorf("prediction of the scans %+v, want 2000 from 3 sizes, measured %v", a.Predictions[0], res.Points[9].Summary.Mean)
	}
	for _, f := range []string{"results.json", "sizesweep.txt", "sizesweep.csv", "sizesweep.svg", "sizesweep.png", "manifest.json", "journal.jsonl"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	var back results.SizeSweepResults
	b, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	if err := json.Unmarshal(b, &back); err != nil || back.Analysis == nil || back.Analysis.NoIndexFit.Slope != a.NoIndexFit.Slope {
		t.Errorf("results.json does not hold the analysis: %v", err)
	}
	journal, _ := os.ReadFile(filepath.Join(dir, "journal.jsonl"))
	if n := strings.Count(string(journal), `"retrieve"`); n != 36 {
		t.Errorf("journal holds %d retrieves, want 36", n)
	}
	e, err := dbms.Open(context.Background(), "sqlite:"+filepath.Join(dir, "sizesweep.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	left, err := dbms.FirstValue(context.Background(), e, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
	if err != nil || left != "0" {
		t.Errorf("%s tables left behind (%v)", left, err)
	}
}

// A 1% range returns size/100 tuples from every method.
func TestSizeSweepPercent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	plan := SizeSweepPlan{Sizes: []int64{1000, 2000, 3000}, Access: []string{results.AccessClustered, results.AccessNonClustered},
		Retrieve: RetrievePercent, Reps: 2, Seed: 2, Keep: true}
	res, err := RunSizeSweep(context.Background(), Setup{Dir: dir, Version: "test"}, plan, progress.New(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Points {
		if p.ExpectedRows != p.Size/100 || p.Summary.N != 2 || !strings.Contains(p.SQL, "BETWEEN") {
			t.Errorf("N=%d %s: %d rows expected, %d times, %s", p.Size, p.Access, p.ExpectedRows, p.Summary.N, p.SQL)
		}
	}
	if res.Analysis.NoIndexFit != nil || len(res.Analysis.Flatness) != 2 {
		t.Errorf("without scans: fit %v, flatness %v", res.Analysis.NoIndexFit, res.Analysis.Flatness)
	}
}

func TestSweepRetrieveText(t *testing.T) {
	tb := sweepTable{name: "ssw_ncl_n500", attr: "unique1", size: 500}
	if q, n := tb.retrieve(RetrieveSingle, 7); q != "SELECT * FROM ssw_ncl_n500 WHERE unique1 = 7" || n != 1 {
		t.Errorf("single: %q %d", q, n)
	}
	if q, n := tb.retrieve(RetrievePercent, 10); q != "SELECT * FROM ssw_ncl_n500 WHERE unique1 BETWEEN 10 AND 14" || n != 5 {
		t.Errorf("1pct: %q %d", q, n)
	}
}

// A plan that differs only in table name and constants is the same plan;
// PostgreSQL's scan of a tiny table before its index scans is a change.
func TestSweepPlanChanges(t *testing.T) {
	pts := []results.SizeSweepPoint{
		{Size: 100, Access: "clustered", Table: "ssw_clu_n100", Plan: "Seq Scan on ssw_clu_n100\n  Filter: (unique2 = 25)\n"},
		{Size: 1000, Access: "clustered", Table: "ssw_clu_n1000", Plan: "Index Scan using ssw_clu_n1000_u2 on ssw_clu_n1000\n  Index Cond: (unique2 = 7)\n"},
		{Size: 5000, Access: "clustered", Table: "ssw_clu_n5000", Plan: "Index Scan using ssw_clu_n5000_u2 on ssw_clu_n5000\n  Index Cond: (unique2 = 4100)\n"},
		{Size: 100, Access: "none", Table: "ssw_none_n100", Plan: "Seq Scan on ssw_none_n100\n"},
		{Size: 1000, Access: "none", Table: "ssw_none_n1000", Plan: "Seq Scan on ssw_none_n1000\n"},
	}
	notes := sweepPlanChanges(pts, []string{"none", "clustered"})
	if len(notes) != 1 || !strings.Contains(notes[0], "clustered: the plan changes at size 1000 to \"Index Scan using ssw_clu_n1000_u2") {
		t.Errorf("notes %q", notes)
	}
}

// The analysis reads the time the basis names.
func TestSweepSeriesBasis(t *testing.T) {
	pts := []results.SizeSweepPoint{
		{Size: 200, Access: "none"}, // not measured: left out
		{Size: 100, Access: "none", Summary: stats.Summary{N: 3, Mean: 5, Median: 2}},
		{Size: 100, Access: "clustered", Summary: stats.Summary{N: 3, Mean: 1, Median: 1}},
	}
	if sizes, _, ys := sweepSeries(pts, "none", "median"); len(sizes) != 1 || ys[0] != 2 {
		t.Errorf("median basis: %v %v", sizes, ys)
	}
	if _, _, ys := sweepSeries(pts, "none", "mean"); len(ys) != 1 || ys[0] != 5 {
		t.Errorf("mean basis: %v", ys)
	}
}
