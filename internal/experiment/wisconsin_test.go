package experiment

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	_ "github.com/dbgauge/dbgauge/internal/dbms/all"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// runSuite runs every query under every organisation and destination at a
// small size on a real engine and checks each result: ok with the expected
// cardinality, or not applicable with a reason.
func runSuite(t *testing.T, url string, sizes []int64) *results.WisconsinResults {
	t.Helper()
	ctx := context.Background()
	e, err := dbms.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	info, err := e.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	run, err := results.Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	all, _ := w.ParseQueries("1-32")
	plan := WisconsinPlan{Sizes: sizes, Reps: 2, Orgs: w.Orgs, Dests: []string{results.DestRelation, results.DestClient, results.DestCount}, Queries: all, Seed: 7, Drop: true}
	res, err := Wisconsin(ctx, e, plan, run, info, progress.New(nil))
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	seen := map[int]bool{}
	for _, q := range res.Queries {
		seen[q.Query] = true
		switch q.Status {
		case results.StatusOK:
			if q.Rows != q.ExpectedRows || q.Reps != 2 || q.ElapsedMS.Median <= 0 {
				t.Errorf("Q%d %s %s N=%d: rows %d expected %d reps %d median %v", q.Query, q.Organization, q.Destination, q.Size, q.Rows, q.ExpectedRows, q.Reps, q.ElapsedMS.Median)
			}
		case results.StatusNotApplicable:
			if q.Reason == "" {
				t.Errorf("Q%d %s: not applicable without a reason", q.Query, q.Organization)
			}
		default:
			t.Errorf("Q%d %s %s N=%d: %s: %s", q.Query, q.Organization, q.Destination, q.Size, q.Status, q.Reason)
		}
	}
	if len(seen) != 32 {
		t.Errorf("%d distinct queries ran, want 32", len(seen))
	}
	// 26 retrieval results x 3 destinations (Q7, Q8 to the client only), 7 updates,
	// per size: (18 retrievals incl. Q7 hash that follow --dest) ...
	want := 0
	for _, q := range w.Queries {
		switch {
		case q.Update, q.ToClient:
			want++
		default:
			want += 3
		}
	}
	if got := len(res.Queries); got != want*len(sizes) {
		t.Errorf("%d query results, want %d", got, want*len(sizes))
	}
	if entries, err := results.ReadJournal(filepath.Join(run.Dir, results.JournalFile)); err != nil || len(entries) < want*2 {
		t.Errorf("journal has %d entries (%v)", len(entries), err)
	}
	return res
}

func TestWisconsinSQLite(t *testing.T) {
	res := runSuite(t, "sqlite:"+filepath.Join(t.TempDir(), "w.db"), []int64{1000, 2000})
	if len(res.Growth) == 0 {
		t.Error("no growth verdicts for two sizes")
	}
	for _, q := range res.Queries {
		if q.Organization == "hash" && q.Status != results.StatusNotApplicable {
			t.Errorf("SQLite has no hash index but Q%d hash is %s", q.Query, q.Status)
		}
	}
}

func TestWisconsinDuckDB(t *testing.T) {
	runSuite(t, "duckdb:"+filepath.Join(t.TempDir(), "w.duckdb"), []int64{1000})
}

func TestWisconsinServers(t *testing.T) {
	for _, eng := range []string{"postgres", "mariadb", "firebird"} {
		t.Run(eng, func(t *testing.T) {
			inst := servertest.Start(t, eng, server.Options{})
			res := runSuite(t, inst.URL, []int64{1000})
			hashOK := false
			for _, q := range res.Queries {
				if q.Organization == "hash" && q.Status == results.StatusOK {
					hashOK = true
				}
			}
			if hashOK != (eng == "postgres") {
				t.Errorf("%s: hash organisation ok = %v", eng, hashOK)
			}
		})
	}
}

// A result whose cardinality differs from the expected one must be reported
// as a mismatch, never as ok.
func TestMismatchIsReported(t *testing.T) {
	ctx := context.Background()
	e, err := dbms.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	run, _ := results.Create(t.TempDir())
	defer run.Close()
	info, _ := e.Info(ctx)
	plan := WisconsinPlan{Sizes: []int64{1000}, Reps: 1, Orgs: []w.Org{w.Heap}, Dests: []string{results.DestRelation}, Queries: []int{1}, Seed: 1}
	r := newRun(e, plan, run, &results.WisconsinResults{}, progress.New(nil), info)
	data, err := r.load(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	// Remove one tuple behind the benchmark's back: every 1% range that
	// contains it now returns one row less.
	if _, err := e.Exec(ctx, fmt.Sprintf("DELETE FROM %s WHERE unique2 >= 0", w.TableName(w.Tenktup1, 1000))); err != nil {
		t.Fatal(err)
	}
	if err := r.query(ctx, data, w.Queries[0], ""); err != nil {
		t.Fatal(err)
	}
	if got := r.res.Queries[0]; got.Status != results.StatusMismatch || got.Rows != 0 {
		t.Errorf("emptied relation gave %s with %d rows", got.Status, got.Rows)
	}
}

// A query past --limit (Q19 takes a few ms at N=1000, the limit is 1 ms) is
// reported as timed out, its other repetitions are
// skipped, and the session stays usable for the next query.
func TestTimeLimit(t *testing.T) {
	ctx := context.Background()
	e, err := dbms.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "l.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	run, _ := results.Create(t.TempDir())
	defer run.Close()
	info, _ := e.Info(ctx)
	plan := WisconsinPlan{Sizes: []int64{1000}, Reps: 3, Orgs: []w.Org{w.Heap}, Dests: []string{results.DestRelation}, Queries: []int{19, 20}, Seed: 1, Limit: time.Millisecond}
	r := newRun(e, plan, run, &results.WisconsinResults{}, progress.New(nil), info)
	data, err := r.load(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.query(ctx, data, w.Queries[19], ""); err != nil { // Q19
		t.Fatal(err)
	}
	q := r.res.Queries[0]
	if q.Query != 19 || q.Status != results.StatusError || !q.TimedOut || q.Reps != 0 {
		t.Fatalf("Q19 past the limit: %+v", q)
	}
	r.plan.Limit = time.Minute
	if err := r.query(ctx, data, w.Queries[20], ""); err != nil { // Q20
		t.Fatal(err)
	}
	if q := r.res.Queries[1]; q.Query != 20 || q.Status != results.StatusOK || q.Reps != 3 {
		t.Errorf("Q20 after a timed-out query: %+v", q)
	}
}

// Organisations are built once whatever the selection: "indexed" alone
// builds the clustered and the secondary index itself (and a size whose
// ONEKTUP is not a multiple of 100 tuples is accepted).
func TestIndexedAloneAndOddSize(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	for _, url := range []string{"sqlite:" + filepath.Join(t.TempDir(), "i.db"), inst.URL} {
		ctx := context.Background()
		e, err := dbms.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		run, _ := results.Create(t.TempDir())
		info, _ := e.Info(ctx)
		plan := WisconsinPlan{Sizes: []int64{1500}, Reps: 2, Orgs: []w.Org{w.Indexed}, Dests: []string{results.DestRelation}, Queries: []int{23, 29, 32}, Seed: 3}
		res, err := Wisconsin(ctx, e, plan, run, info, progress.New(nil))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		for _, q := range res.Queries {
			if q.Status != results.StatusOK {
				t.Errorf("%s Q%d: %s %s", e.Name(), q.Query, q.Status, q.Reason)
			}
		}
		run.Close()
		e.Close()
	}
}
