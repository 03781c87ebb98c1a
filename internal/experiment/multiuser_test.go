package experiment

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

// Scripts: the same for the same user, different between users, two thirds
// of the retrieves on unique1, every range inside 0..N-1.
func TestMultiuserScript(t *testing.T) {
	a := MultiuserScript(1, 0, 1000, 10, 5)
	if b := MultiuserScript(1, 0, 1000, 10, 5); !sameScript(a, b) {
		t.Errorf("user 0's script differs between calls")
	}
	if c := MultiuserScript(1, 1, 1000, 10, 5); sameScript(a, c) {
		t.Errorf("users 0 and 1 share a script")
	}
	u1 := 0
	for i, r := range a {
		if r.Attr == "unique1" {
			u1++
		}
		if r.Low < 0 || r.High > 999 || r.Expected() != 5 {
			t.Errorf("retrieve %d: %+v", i, r)
		}
	}
	if u1 != 7 {
		t.Errorf("%d of 10 retrieves on unique1, want 7 (two thirds)", u1)
	}
	if q := (Retrieve{Attr: "unique2", Low: 7, High: 7}).SQL("t"); q != "SELECT * FROM t WHERE unique2 = 7" {
		t.Errorf("exact match: %s", q)
	}
	if q := (Retrieve{Attr: "unique1", Low: 7, High: 9}).SQL("t"); q != "SELECT * FROM t WHERE unique1 BETWEEN 7 AND 9" {
		t.Errorf("range: %s", q)
	}
}

func sameScript(a, b []Retrieve) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkMultiuserRun checks a run on SQLite: every user count measured reps
// times with every row, the table's points, both organisations and the
// files of the run directory.
func checkMultiuserRun(t *testing.T, dir string, plan MultiuserPlan, res *results.MultiuserResults) {
	t.Helper()
	if !res.Complete || len(res.Runs) != len(plan.Users)*plan.Reps || len(res.Points) != len(plan.Users) {
		t.Fatalf("complete %v, %d runs, %d points (error %q)", res.Complete, len(res.Runs), len(res.Points), res.Error)
	}
	for _, r := range res.Runs {
		want := int64(r.Users*plan.Retrieves) * plan.RowsPerRetrieve
		if r.Rows != want || len(r.UserMS) != r.Users || r.WallMS < 0 {
			t.Errorf("users %d rep %d: %d rows (want %d), %d user times, wall %v", r.Users, r.Rep, r.Rows, want, len(r.UserMS), r.WallMS)
		}
		for _, u := range r.UserMS {
			if u <= 0 {
				t.Errorf("users %d rep %d: a user took %v ms", r.Users, r.Rep, u)
			}
		}
	}
	for _, p := range res.Points {
		switch {
		case p.Users == 0 && (p.Thruput != nil || p.PerUserMS != nil):
			t.Errorf("zero users has thruput or per_user: %+v", p)
		case p.Users == 1 && (p.Thruput == nil || *p.Thruput != 1):
			t.Errorf("one user: thruput %v, want 1", p.Thruput)
		case p.Users > 0 && (p.Thruput == nil || p.PerUserMS == nil || math.Abs(*p.PerUserMS*float64(p.Users)-p.MedianMS) > 1e-9*p.MedianMS):
			t.Errorf("users %d: %+v", p.Users, p)
		}
		if p.N != plan.Reps || p.MinMS > p.MedianMS || p.MaxMS < p.MedianMS {
			t.Errorf("users %d: n %d, median %v outside %v..%v", p.Users, p.N, p.MedianMS, p.MinMS, p.MaxMS)
		}
	}
	if res.OverheadMS == nil {
		t.Error("no overhead from the zero-user run")
	}
	// Both organisations exist: SQLite's clustered table is WITHOUT ROWID
	// on unique2, and the unique1 index survived the rebuild.
	e, err := dbms.Open(context.Background(), "sqlite:"+filepath.Join(dir, "multiuser.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rows, err := e.QueryRows(context.Background(), "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = '"+res.Table+"'")
	if err != nil {
		t.Fatal(err)
	}
	var clustered, index bool
	for _, r := range rows {
		clustered = clustered || r[0] == "table" && strings.Contains(r[2], "WITHOUT ROWID") && strings.Contains(r[2], "PRIMARY KEY (unique2)")
		index = index || r[0] == "index" && r[1] == res.Table+"_u1" && strings.Contains(r[2], "(unique1)")
	}
	if !clustered || !index {
		t.Errorf("clustered on unique2 %v, index on unique1 %v: %v", clustered, index, rows)
	}
	for _, f := range []string{"results.json", "multiuser.txt", "multiuser.csv", "multiuser.svg", "multiuser.png", "manifest.json", "journal.jsonl"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	txt, _ := os.ReadFile(filepath.Join(dir, "multiuser.txt"))
	if !strings.Contains(string(txt), "thruput") || !strings.Contains(string(txt), "overhead") {
		t.Errorf("multiuser.txt:\n%s", txt)
	}
}

// Goroutines on SQLite, with the overhead subtracted.
func TestMultiuserSQLite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	plan := MultiuserPlan{Users: []int{0, 1, 2, 4}, Tuples: 1000, Reps: 3, Retrieves: 10, RowsPerRetrieve: 3, SubtractOverhead: true, Seed: 1}
	res, err := RunMultiuser(context.Background(), Setup{Dir: dir, Version: "test"}, plan, progress.New(nil))
	if err != nil {
		t.Fatal(err)
	}
	checkMultiuserRun(t, dir, plan, res)
	for _, p := range res.Points {
		if p.Users == 0 && p.MedianMS != 0 {
			t.Errorf("zero users after subtracting their own median: %v ms", p.MedianMS)
		}
	}
}

// Processes on SQLite: the users are this test binary re-run as
// TestMultiuserUserProcess.
func TestMultiuserProcessesSQLite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	plan := MultiuserPlan{Users: []int{0, 1, 3}, Tuples: 1000, Reps: 2, Retrieves: 4, RowsPerRetrieve: 1, Seed: 2, Processes: true,
		UserCommand: []string{os.Args[0], "-test.run=^TestMultiuserUserProcess$", "--"}, UserEnv: []string{"DBGAUGE_TEST_MULTIUSER_USER=1"}}
	res, err := RunMultiuser(context.Background(), Setup{Dir: dir, Version: "test"}, plan, progress.New(nil))
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != "processes" {
		t.Errorf("mode %q", res.Mode)
	}
	checkMultiuserRun(t, dir, plan, res)
}

// TestMultiuserUserProcess is a user process of TestMultiuserProcessesSQLite
// (what dbgauge's hidden "multiuser user" command is in the real binary).
func TestMultiuserUserProcess(t *testing.T) {
	if os.Getenv("DBGAUGE_TEST_MULTIUSER_USER") != "1" {
		t.Skip("a user process of TestMultiuserProcessesSQLite")
	}
	fs := flag.NewFlagSet("user", flag.ContinueOnError)
	table := fs.String("table", "", "")
	script := fs.String("script", "", "")
	if err := fs.Parse(flag.Args()); err != nil {
		t.Fatal(err)
	}
	var s []Retrieve
	if err := json.Unmarshal([]byte(*script), &s); err != nil {
		t.Fatal(err)
	}
	err := MultiuserUser(context.Background(), *table, s, os.NewFile(3, "release"), os.Stdout)
	if err != nil {
		os.Exit(1)
	}
	os.Exit(0) // before the test framework prints PASS on the master's pipe
}

// A wrong cardinality stops the script with the retrieve that failed.
func TestMultiuserCardinalityChecked(t *testing.T) {
	ctx := context.Background()
	e, err := dbms.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, q := range []string{"CREATE TABLE t (unique1 INT, unique2 INT)", "INSERT INTO t VALUES (0, 0), (1, 1), (3, 3)"} {
		if _, err := e.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	n, err := runScript(ctx, e, "t", []Retrieve{{"unique1", 0, 1}, {"unique2", 3, 3}})
	if err != nil || n != 3 {
		t.Fatalf("complete script: %d rows, %v", n, err)
	}
	_, err = runScript(ctx, e, "t", []Retrieve{{"unique1", 0, 0}, {"unique1", 1, 2}})
	if err == nil || !strings.Contains(err.Error(), "retrieve 2") || !strings.Contains(err.Error(), "1 rows, expected 2") {
		t.Errorf("missing row: %v", err)
	}
}
