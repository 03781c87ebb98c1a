package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// killAt runs dbgauge with args and kills it with SIGKILL (no chance to
// write anything more) at the first stderr line containing at.
func killAt(t *testing.T, args []string, at string) []string {
	t.Helper()
	killed := false
	lines, _, code := runWatching(t, args, func(line string, p *os.Process) {
		if !killed && strings.Contains(line, at) {
			p.Signal(syscall.SIGKILL)
			killed = true
		}
	})
	if !killed || code != -1 {
		t.Fatalf("dbgauge was not killed at %q (exit %d); stderr:\n%s", at, code, strings.Join(lines, "\n"))
	}
	return lines
}

// unitsDone counts the units a run's journal says completed, by name.
func unitsDone(t *testing.T, dir string) map[string]int {
	t.Helper()
	entries, err := results.ReadJournal(filepath.Join(dir, results.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, e := range entries {
		var u results.UnitDone
		if e.Type == u.JournalKind() && json.Unmarshal(e.Data, &u) == nil {
			n[u.Unit]++
		}
	}
	return n
}

// onceEach fails unless every one of want units completed exactly once:
// a resumed run did not measure again what it had.
func onceEach(t *testing.T, dir string, want int) {
	t.Helper()
	units := unitsDone(t, dir)
	for u, n := range units {
		if n != 1 {
			t.Errorf("unit %q completed %d times", u, n)
		}
	}
	if len(units) != want {
		t.Errorf("%d units completed, want %d: %v", len(units), want, units)
	}
}

// dsbenchRows are what must be the same in a resumed sweep and an
// uninterrupted one: per scale its seed, how many cycles ran and whether
// every check found the sums consistent (the rates differ by timing only).
type dsbenchRow struct {
	Scale      int64     `json:"scale"`
	Seed       uint64    `json:"seed"`
	Cycles     []float64 `json:"cycles"`
	Consistent bool      `json:"consistent"`
	Trans      int64     `json:"transactions"`
}

type dsbenchStored struct {
	Complete bool            `json:"complete"`
	Error    string          `json:"error"`
	Resumed  []time.Time     `json:"resumed"`
	Scales   []dsbenchRow    `json:"scales"`
	Pauses   []results.Pause `json:"pauses"`
	DSI      *float64        `json:"dsi"`
}

func readJSON[T any](t *testing.T, path string) T {
	t.Helper()
	var v T
	loadJSON(t, path, &v)
	return v
}

// loadJSON decodes the JSON file at path into v.
func loadJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// sameScales compares a resumed sweep's rows with an uninterrupted one's.
func sameScales(t *testing.T, got, want []dsbenchRow) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d scales, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Scale != w.Scale || g.Seed != w.Seed || len(g.Cycles) != len(w.Cycles) || g.Consistent != w.Consistent || g.Trans <= 0 {
			t.Errorf("scale row %d: got scale %d seed %d, %d cycles, consistent %v, %d transactions; want scale %d seed %d, %d cycles, consistent %v",
				i, g.Scale, g.Seed, len(g.Cycles), g.Consistent, g.Trans, w.Scale, w.Seed, len(w.Cycles), w.Consistent)
		}
	}
}

// TestResumeDSBenchKilled: a sweep killed with SIGKILL once its first
// scale is stored, as it goes on to populate the second (kill -9, as a
// power loss: nothing more is written), continues with `dbgauge resume
// DIR` from the second scale, populated again from the start, and ends
// with the same table as an uninterrupted sweep: the same scales, the
// same per-scale seeds, the same number of cycles, every one consistent.
// results.json and the page say when it was resumed, and a second resume
// is refused as the run completed. On SQLite (embedded, in the run
// directory) and on a private PostgreSQL.
func TestResumeDSBenchKilled(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { resumeDSBenchKilled(t) })
	t.Run("postgres", func(t *testing.T) {
		inst := servertest.Start(t, "postgres", server.Options{})
		resumeDSBenchKilled(t, "--db", inst.URL)
	})
}

func resumeDSBenchKilled(t *testing.T, db ...string) {
	tmp := t.TempDir()
	args := func(out string) []string {
		return append([]string{"dsbench", "--scales", "1,2,3", "--cycles", "2", "--duration", "1s", "--threads", "2", "--seed", "7", "--out", out}, db...)
	}
	whole := filepath.Join(tmp, "whole")
	if code, _, stderr := runBinary(t, args(whole)...); code != 0 {
		t.Fatalf("uninterrupted sweep: exit %d\n%s", code, stderr)
	}
	want := readJSON[dsbenchStored](t, filepath.Join(whole, results.ResultsFile))

	dir := filepath.Join(tmp, "killed")
	killAt(t, args(dir), "scale 1      median")
	before := readJSON[dsbenchStored](t, filepath.Join(dir, results.ResultsFile))
	if before.Complete || len(before.Scales) != 1 {
		t.Fatalf("killed sweep: complete %v, %d scales stored: want scale 1 only", before.Complete, len(before.Scales))
	}

	// The manifest hides a server URL's password: given again.
	code, stdout, stderr := runBinary(t, append([]string{"resume", dir}, db...)...)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "scale 1      complete before the run was resumed: kept") || !strings.Contains(stderr, "scale 2      populated") {
		t.Errorf("resume did not keep scale 1 and populate scale 2 again:\n%s", stderr)
	}
	got := readJSON[dsbenchStored](t, filepath.Join(dir, results.ResultsFile))
	if !got.Complete || got.Error != "" || len(got.Resumed) != 1 || got.DSI == nil {
		t.Fatalf("resumed sweep: complete %v, error %q, resumed %v, DSI %v", got.Complete, got.Error, got.Resumed, got.DSI)
	}
	sameScales(t, got.Scales, want.Scales)
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || !strings.Contains(string(page), "was resumed (dbgauge resume) at "+got.Resumed[0].UTC().Format("2006-01-02 15:04:05 UTC")) {
		t.Errorf("the page does not say when the run was resumed (%v)", err)
	}
	// The journal holds both parts: every scale's completion once.
	onceEach(t, dir, 3)

	code, _, stderr = runBinary(t, append([]string{"resume", dir}, db...)...)
	if code != ExitBadInput || !strings.Contains(stderr, "the run completed") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("second resume: exit %d, stderr %q: want %d and one line saying it completed", code, stderr, ExitBadInput)
	}
}

// TestResumeRefused: `dbgauge resume` refuses, with one line and exit 2,
// what it cannot continue, and writes nothing there.
func TestResumeRefused(t *testing.T) {
	tmp := t.TempDir()
	storage := filepath.Join(tmp, "storage")
	os.Mkdir(storage, 0o755)
	writeFile(t, storage, results.ManifestFile, `{"experiment":"storage"}`)
	hidden := filepath.Join(tmp, "hidden")
	os.Mkdir(hidden, 0o755)
	writeFile(t, hidden, results.ManifestFile, `{"experiment":"dsbench","config":{"db":"postgres://u:***@127.0.0.1:1/db","scales":"1"}}`)
	hiddenParam := filepath.Join(tmp, "hidden-param")
	os.Mkdir(hiddenParam, 0o755)
	writeFile(t, hiddenParam, results.ManifestFile, `{"experiment":"dsbench","config":{"db":"postgres://u@127.0.0.1:1/db?password=***","scales":"1"}}`)
	// A manifest is checked as strictly as the command line: counts this
	// machine cannot hold are refused before anything starts.
	huge := filepath.Join(tmp, "huge")
	os.Mkdir(huge, 0o755)
	writeFile(t, huge, results.ManifestFile, `{"experiment":"dsbench","config":{"db":"sqlite:`+filepath.Join(huge, "x.db")+`","scales":"1","threads":"100000000"}}`)
	crowd := filepath.Join(tmp, "crowd")
	os.Mkdir(crowd, 0o755)
	writeFile(t, crowd, results.ManifestFile, `{"experiment":"multiuser","config":{"db":"sqlite:`+filepath.Join(crowd, "x.db")+`","users":"0,1,100000000","tuples":"1000"}}`)
	cases := []struct {
		name, dir, want string
		flags           []string
	}{
		{"threads beyond the machine", huge, "--threads 100000000 x --connections 1: ", nil},
		{"users beyond the machine", crowd, "--users 0,1,100000000 x --retrieves 10: ", nil},
		{"no directory", filepath.Join(tmp, "missing"), "no readable manifest.json", nil},
		{"not a run", tmp, "no readable manifest.json", nil},
		{"no units", storage, "storage runs have no units", nil},
		{"password hidden", hidden, "give the URL again, dbgauge resume DIR --db URL", nil},
		{"password parameter hidden", hiddenParam, "give the URL again, dbgauge resume DIR --db URL", nil},
		// The same server without the password (which may come from
		// elsewhere) is the run's: here it cannot be reached.
		{"same server without password", hidden, "cannot reach PostgreSQL at 127.0.0.1:1", []string{"--db", "postgres://u@127.0.0.1:1/db"}},
		{"another database", hidden, "--db postgres://u:***@127.0.0.1:2/other is not the run's engine and database", []string{"--db", "postgres://u:secret@127.0.0.1:2/other"}},
		{"another engine", hidden, "--db mysql://u:***@127.0.0.1:1/db is not the run's engine and database", []string{"--db", "mysql://u:secret@127.0.0.1:1/db"}},
		{"moved, not answering", hidden, "cannot reach PostgreSQL at 127.0.0.1:3", []string{"--db", "postgres://u:secret@127.0.0.1:3/db"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, _ := os.ReadDir(c.dir)
			code, stdout, stderr := run(append([]string{"resume", c.dir}, c.flags...)...)
			if code != ExitBadInput || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q: want %d and one line with %q", code, stdout, stderr, ExitBadInput, c.want)
			}
			if strings.Contains(stderr, "secret") {
				t.Errorf("the password was echoed: %q", stderr)
			}
			after, _ := os.ReadDir(c.dir)
			if len(after) != len(before) {
				t.Errorf("%d files in %s after the refusal, %d before", len(after), c.dir, len(before))
			}
		})
	}
}

// qacRow is what a resumed protocol run and an uninterrupted one share:
// per Q@C its cardinality, table, query text and number of QEs.
type qacRow struct {
	Cardinality int64  `json:"cardinality"`
	Table       string `json:"table"`
	SQL         string `json:"sql"`
	QEs         []struct {
		Rows  int64  `json:"rows"`
		Error string `json:"error"`
	} `json:"qes"`
}

type qacStored struct {
	Complete bool        `json:"complete"`
	Resumed  []time.Time `json:"resumed"`
	QaCs     []qacRow    `json:"qacs"`
}

// TestResumeQACKilled: a protocol run killed with SIGKILL in the middle
// of a Q@C (its second of six executions at cardinality 2000 done, each
// about 0.1 s on SQLite) resumes with that Q@C from its first execution
// and ends with the Q@Cs an uninterrupted run has: the same
// cardinalities, tables, query texts and six executions each.
func TestResumeQACKilled(t *testing.T) {
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src.db")
	e, err := dbms.Open(context.Background(), "sqlite:"+src)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"CREATE TABLE t (k INTEGER, v INTEGER)",
		"WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 2999) INSERT INTO t SELECT x, x * 7 % 1000 FROM c"} {
		if _, err := e.Exec(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	e.Close()
	// A self-join whose cost grows with the square of the cardinality.
	sql := writeFile(t, tmp, "q.sql", "SELECT count(*) FROM {table} a, {table} b WHERE a.v < b.v")
	args := func(out string) []string {
		return []string{"qac", "--db", "sqlite:" + src, "--sql", sql, "--table", "t", "--key", "k",
			"--cardinalities", "1000,2000,3000", "--qe", "6", "--out", out}
	}
	whole := filepath.Join(tmp, "whole")
	if code, _, stderr := runBinary(t, args(whole)...); code != 0 {
		t.Fatalf("uninterrupted run: exit %d\n%s", code, stderr)
	}
	want := readJSON[qacStored](t, filepath.Join(whole, results.ResultsFile))

	dir := filepath.Join(tmp, "killed")
	killAt(t, args(dir), "cardinality 2000      QE  2/6")
	// Killed mid-Q@C: executions of cardinality 2000 journalled, the Q@C
	// not complete.
	entries, err := results.ReadJournal(filepath.Join(dir, results.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	qes2000, done := 0, map[string]bool{}
	for _, e := range entries {
		switch e.Type {
		case "qe":
			if strings.Contains(string(e.Data), `"cardinality":2000`) {
				qes2000++
			}
		case "unit":
			done[string(e.Data)] = true
		}
	}
	if qes2000 < 2 || qes2000 >= 6 || len(done) != 1 {
		t.Fatalf("killed with %d executions at cardinality 2000 and units %v: want the run stopped within that Q@C", qes2000, done)
	}

	code, stdout, stderr := runBinary(t, "resume", dir)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "cardinality 1000      complete before the run was resumed: kept") || !strings.Contains(stderr, "cardinality 2000      QE  1/6") {
		t.Errorf("resume did not keep cardinality 1000 and start 2000 again:\n%s", stderr)
	}
	got := readJSON[qacStored](t, filepath.Join(dir, results.ResultsFile))
	if !got.Complete || len(got.Resumed) != 1 {
		t.Errorf("resumed run: complete %v, resumed %v", got.Complete, got.Resumed)
	}
	if len(got.QaCs) != len(want.QaCs) {
		t.Fatalf("%d Q@Cs, want %d", len(got.QaCs), len(want.QaCs))
	}
	onceEach(t, dir, len(want.QaCs))
	for i, w := range want.QaCs {
		g := got.QaCs[i]
		if g.Cardinality != w.Cardinality || g.Table != w.Table || g.SQL != w.SQL || len(g.QEs) != len(w.QEs) {
			t.Errorf("Q@C %d: got %d %s %q with %d QEs, want %d %s %q with %d", i, g.Cardinality, g.Table, g.SQL, len(g.QEs), w.Cardinality, w.Table, w.SQL, len(w.QEs))
			continue
		}
		for j := range w.QEs {
			if g.QEs[j].Rows != w.QEs[j].Rows || g.QEs[j].Error != "" {
				t.Errorf("Q@C %d QE %d: %d rows (error %q), want %d", i, j+1, g.QEs[j].Rows, g.QEs[j].Error, w.QEs[j].Rows)
			}
		}
	}
}

// TestResumeWisconsinKilled: a Wisconsin run killed with SIGKILL once the
// first query result of its second size is stored resumes with that
// size loaded and organised again and only its remaining query results
// run; the first size is taken back from the journal without a load. It
// ends with the query results of an uninterrupted run: the same sizes,
// queries, organisations, destinations, repetitions, statuses and rows.
func TestResumeWisconsinKilled(t *testing.T) {
	tmp := t.TempDir()
	args := func(out string) []string {
		return []string{"wisconsin", "--size", "1000,2000", "--reps", "5", "--queries", "1-8", "--seed", "3", "--out", out}
	}
	type query struct {
		Size        int64  `json:"size"`
		Query       int    `json:"query"`
		Org         string `json:"organization"`
		Destination string `json:"destination"`
		Reps        int    `json:"reps"`
		Status      string `json:"status"`
		Rows        int64  `json:"rows"`
	}
	type stored struct {
		Complete bool        `json:"complete"`
		Resumed  []time.Time `json:"resumed"`
		Queries  []query     `json:"queries"`
	}
	whole := filepath.Join(tmp, "whole")
	if code, _, stderr := runBinary(t, args(whole)...); code != 0 {
		t.Fatalf("uninterrupted run: exit %d\n%s", code, stderr)
	}
	want := readJSON[stored](t, filepath.Join(whole, results.ResultsFile))

	dir := filepath.Join(tmp, "killed")
	killAt(t, args(dir), "N=2000      Q1 ")
	before := readJSON[stored](t, filepath.Join(dir, results.ResultsFile))
	if before.Complete || len(before.Queries) >= len(want.Queries) {
		t.Fatalf("killed run: complete %v with %d of %d query results: want it stopped within size 2000", before.Complete, len(before.Queries), len(want.Queries))
	}
	code, stdout, stderr := runBinary(t, "resume", dir)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "N=1000      complete before the run was resumed: kept") || strings.Contains(stderr, "loaded tenktup1_n1000") {
		t.Errorf("resume did not keep size 1000 without loading it:\n%s", stderr)
	}
	got := readJSON[stored](t, filepath.Join(dir, results.ResultsFile))
	if !got.Complete || len(got.Resumed) != 1 {
		t.Errorf("resumed run: complete %v, resumed %v", got.Complete, got.Resumed)
	}
	if len(got.Queries) != len(want.Queries) {
		t.Fatalf("%d query results, want %d", len(got.Queries), len(want.Queries))
	}
	onceEach(t, dir, len(want.Queries))
	for i := range want.Queries {
		if got.Queries[i] != want.Queries[i] {
			t.Errorf("query result %d: got %+v, want %+v", i, got.Queries[i], want.Queries[i])
		}
	}
}

// TestResumeStepsKilled: a multiuser run killed with SIGKILL between two
// steps (user counts) and a size sweep killed once it loaded its second
// size's relation (cutting and organising its tables) resume from the step or size that did not complete: every unit
// completes exactly once over both parts, and the results hold as many
// measurements per unit as an uninterrupted run's.
func TestResumeStepsKilled(t *testing.T) {
	cases := []struct {
		name, at string
		args     []string
		units    int
		// count is the number of measurements results.json holds.
		count func(t *testing.T, path string) int
	}{
		{"multiuser", "users   1  repetition 1/2",
			[]string{"multiuser", "--users", "0,1,2", "--tuples", "10000", "--reps", "2", "--retrieves", "1000"}, 6,
			func(t *testing.T, path string) int {
				return len(readJSON[struct {
					Runs []struct{} `json:"runs"`
				}](t, path).Runs)
			}},
		{"sizesweep", "N=40000     loaded",
			[]string{"sizesweep", "--sizes", "20000,40000", "--reps", "3"}, 2,
			func(t *testing.T, path string) int {
				n := 0
				for _, p := range readJSON[struct {
					Points []struct {
						TimesMS []float64 `json:"times_ms"`
					} `json:"points"`
				}](t, path).Points {
					n += len(p.TimesMS)
				}
				return n
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			whole := filepath.Join(tmp, "whole")
			if code, _, stderr := runBinary(t, append(c.args, "--out", whole)...); code != 0 {
				t.Fatalf("uninterrupted run: exit %d\n%s", code, stderr)
			}
			want := c.count(t, filepath.Join(whole, results.ResultsFile))
			dir := filepath.Join(tmp, "killed")
			killAt(t, append(c.args, "--out", dir), c.at)
			if n := len(unitsDone(t, dir)); n == 0 || n >= c.units {
				t.Fatalf("killed with %d of %d units complete: want it stopped in between", n, c.units)
			}
			code, stdout, stderr := runBinary(t, "resume", dir)
			if code != 0 {
				t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
			}
			onceEach(t, dir, c.units)
			got := readJSON[struct {
				Complete bool        `json:"complete"`
				Resumed  []time.Time `json:"resumed"`
			}](t, filepath.Join(dir, results.ResultsFile))
			if !got.Complete || len(got.Resumed) != 1 {
				t.Errorf("complete %v, resumed %v", got.Complete, got.Resumed)
			}
			if n := c.count(t, filepath.Join(dir, results.ResultsFile)); n != want {
				t.Errorf("%d measurements, want %d as in an uninterrupted run", n, want)
			}
		})
	}
}
