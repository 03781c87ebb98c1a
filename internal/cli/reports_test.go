package cli

import (
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// TestRunsAreReportedCatalogedAndExported follows two Wisconsin runs (one
// on SQLite, one on DuckDB) through what happens after a run: report.html,
// bench.txt, the catalog and `dbgauge list`, a lost catalog rebuilt, the
// report regenerated from a copy of the run directory elsewhere, and
// `dbgauge compare` of the two.
func TestRunsAreReportedCatalogedAndExported(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	a, b := filepath.Join(runs, "a-sqlite"), filepath.Join(runs, "b-duckdb")
	// A directory of runs other than ./runs gets a catalog once it has
	// one: list makes it, and the runs that end afterwards register.
	os.MkdirAll(runs, 0o755)
	if code, stdout, _ := run("list", "--dir", runs); code != 0 || !strings.Contains(stdout, "no runs") {
		t.Fatalf("list of an empty directory of runs: exit %d: %s", code, stdout)
	}
	stray := filepath.Join(t.TempDir(), "stray")
	for _, r := range []struct{ dir, db string }{{a, ""}, {b, "duckdb:" + filepath.Join(t.TempDir(), "w.duckdb")}} {
		args := []string{"wisconsin", "--size", "1000", "--reps", "3", "--queries", "1-8", "--out", r.dir}
		if r.db != "" {
			args = append(args, "--db", r.db)
		}
		code, stdout, stderr := run(args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if !strings.Contains(stdout, "report: "+filepath.Join(r.dir, "report.html")) {
			t.Errorf("the run does not print its report's path:\n%s", stdout)
		}
		bench, err := os.ReadFile(filepath.Join(r.dir, "bench.txt"))
		if err != nil {
			t.Fatal(err)
		}
		// Three repetitions of every query: three lines each, as
		// benchstat's own reader reads them.
		q1, engine := benchSamples(t, filepath.Join(r.dir, "bench.txt"), "Wisconsin/Q1/")
		if q1 != 3 || engine == "" {
			t.Errorf("bench.txt: %d samples of Q1 (want 3), engine %q:\n%s", q1, engine, bench)
		}
	}
	if code, _, stderr := run("wisconsin", "--size", "1000", "--reps", "1", "--queries", "1", "--out", stray); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(stray), "catalog.db")); err == nil {
		t.Error("a run with --out in a directory without a catalog made one there")
	}
	db, err := sql.Open("sqlite3", filepath.Join(runs, "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM runs").Scan(&n); err != nil || n != 2 {
		t.Errorf("the catalog holds %d runs (%v), want the 2 that ended after list made it", n, err)
	}
	db.Close()
	list := func() string {
		t.Helper()
		code, stdout, stderr := run("list", "--dir", runs)
		if code != 0 {
			t.Fatalf("list: exit %d: %s", code, stderr)
		}
		return stdout
	}
	first := list()
	for _, want := range []string{"a-sqlite", "b-duckdb", "sqlite", "duckdb", "complete"} {
		if !strings.Contains(first, want) {
			t.Errorf("list lacks %q:\n%s", want, first)
		}
	}
	os.Remove(filepath.Join(runs, "catalog.db"))
	if again := list(); again != first {
		t.Errorf("the rebuilt catalog lists otherwise:\n%s\nwas:\n%s", again, first)
	}

	// A copy elsewhere regenerates the same page: no absolute path of the
	// original is baked into it.
	moved := filepath.Join(t.TempDir(), "elsewhere")
	if out, err := exec.Command("cp", "-r", a, moved).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	os.Remove(filepath.Join(moved, "report.html"))
	if code, _, stderr := run("report", moved); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	orig, _ := os.ReadFile(filepath.Join(a, "report.html"))
	regen, err := os.ReadFile(filepath.Join(moved, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if string(orig) != string(regen) {
		t.Errorf("the report regenerated from a copy differs from the original (%d vs %d bytes)", len(regen), len(orig))
	}

	page := filepath.Join(t.TempDir(), "cmp.html")
	code, stdout, stderr := run("compare", a, b, "--html", page)
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sqlite", "duckdb", "<svg", "Relative time per engine"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the comparison page lacks %q", want)
		}
	}
	if !strings.Contains(stdout, "report: "+page) {
		t.Errorf("compare does not print the page's path:\n%s", stdout)
	}
	if code, _, _ := run("compare", a, filepath.Join(runs, "nothing")); code != 2 {
		t.Errorf("compare with a directory that is no run: exit %d, want 2", code)
	}
}

// benchSamples reads a Go benchmark format file with benchstat's reader
// (golang.org/x/perf/benchfmt): the number of results whose name starts
// with prefix, and the file's engine configuration. A line the reader
// refuses fails the test.
func benchSamples(t *testing.T, path, prefix string) (n int, engine string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := benchfmt.NewReader(f, path)
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("benchstat cannot read %s: %v", path, rec)
		case *benchfmt.Result:
			if strings.HasPrefix(string(rec.Name), prefix) {
				n++
			}
			if v := rec.GetConfig("engine"); v != "" {
				engine = v
			}
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return n, engine
}
