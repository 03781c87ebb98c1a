package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "github.com/dbgauge/dbgauge/internal/dbms/all"
	"github.com/dbgauge/dbgauge/internal/server"
	_ "github.com/dbgauge/dbgauge/internal/workload/all"
)

func run(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = Run(&o, &e, args)
	return code, o.String(), e.String()
}

// Bad input: one line naming the problem, exit code 2, nothing written.
func TestBadInput(t *testing.T) {
	tmp := t.TempDir()
	closed, _ := server.FreePort()
	ro := filepath.Join(tmp, "ro")
	os.Mkdir(ro, 0o555)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown engine", []string{"wisconsin", "--db", "oracle://x@127.0.0.1/db"}, "unknown engine"},
		{"unreachable server", []string{"wisconsin", "--db", "postgres://postgres@127.0.0.1:" + itoa(closed) + "/db"}, "127.0.0.1"},
		{"size not divisible", []string{"wisconsin", "--size", "10050"}, "multiple of 100"},
		{"size not a number", []string{"wisconsin", "--size", "ten"}, "not a positive whole number"},
		{"unknown query", []string{"wisconsin", "--queries", "1-33"}, "unknown query number"},
		{"unknown org", []string{"wisconsin", "--org", "isam"}, "unknown value"},
		{"zero reps", []string{"wisconsin", "--reps", "0"}, "repetition"},
		{"unknown flag", []string{"wisconsin", "--bogus"}, "unknown flag"},
		{"bad config key", []string{"wisconsin", "--config", writeFile(t, tmp, "c.yaml", "sizes: 10\n")}, "unknown key"},
		{"duplicate size", []string{"wisconsin", "--size", "1000,1000"}, "given twice"},
		{"server dir without instance", []string{"wisconsin", "--server", tmp, "--db", "postgres://x@127.0.0.1:1/db"}, "no dbgauge instance"},
		{"negative limit", []string{"wisconsin", "--limit", "-1s"}, "negative"},
		{"dsbench scale zero", []string{"dsbench", "--scales", "0"}, "not a positive whole number"},
		{"dsbench unknown mode", []string{"dsbench", "--mode", "tpcc"}, "give tpcb, orders, select or script"},
		{"dsbench procedure on sqlite", []string{"dsbench", "--form", "procedure"}, "no server-side procedures"},
		{"dsbench dsi with threads", []string{"dsbench", "--dsi", "--threads", "4"}, "leave out --threads"},
		{"dsbench bad confidence", []string{"dsbench", "--confidence", "50,100"}, "percentage"},
		{"dsbench remote nodes", []string{"dsbench", "--nodes", "2"}, "--listen"},
		{"unknown server engine", []string{"server", "start", "oracle", "--dir", tmp}, "unknown server engine"},
		{"qac without query", []string{"qac", "--cardinalities", "1000,2000"}, "--wisconsin Q"},
		{"qac without cardinalities", []string{"qac", "--wisconsin", "1"}, "--cardinalities is required"},
		{"qac join", []string{"qac", "--wisconsin", "9", "--cardinalities", "1000"}, "selections 1-8"},
		{"qac too few qes", []string{"qac", "--wisconsin", "1", "--cardinalities", "1000", "--qe", "3"}, "at least 6"},
		{"qac sql without table", []string{"qac", "--sql", writeFile(t, tmp, "q.sql", "SELECT * FROM {table}"), "--cardinalities", "1000"}, "--table"},
		{"qac sql without placeholder", []string{"qac", "--sql", writeFile(t, tmp, "p.sql", "SELECT 1"), "--table", "t", "--key", "k", "--cardinalities", "1000"}, "{table}"},
		{"qac bad cache", []string{"qac", "--wisconsin", "1", "--cardinalities", "1000", "--cache", "hot"}, "warm or cold"},
		{"qac cpu out of range", []string{"qac", "--wisconsin", "1", "--cardinalities", "1000", "--cpus", "64"}, "this machine has CPUs"},
		{"qac bad cpu list", []string{"qac", "--wisconsin", "1", "--cardinalities", "1000", "--cpus", "one"}, "not a CPU number"},
		{"wisconsin bad protocol", []string{"wisconsin", "--protocol", "tucson"}, "none or ttp"},
		{"sqlite unknown URL parameter", []string{"wisconsin", "--db", "sqlite:" + filepath.Join(tmp, "p.db") + "?_jurnal_mode=WAL"}, "--db sqlite:"},
		{"duckdb unknown URL parameter", []string{"wisconsin", "--db", "duckdb:" + filepath.Join(tmp, "p.duckdb") + "?threds=2"}, "--db"},
	}
	if os.Geteuid() != 0 { // root can write anywhere
		cases = append(cases, struct {
			name string
			args []string
			want string
		}{"unwritable out", []string{"wisconsin", "--out", filepath.Join(ro, "run")}, "not writable"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(tmp, "out-"+strings.ReplaceAll(c.name, " ", "-"))
			args := append(c.args, "--out", out)
			if c.args[0] == "server" || c.name == "unwritable out" {
				args = c.args
			}
			code, _, stderr := run(args...)
			if code != 2 {
				t.Errorf("exit code %d, want 2 (stderr %q)", code, stderr)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q: want one line containing %q", stderr, c.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was written on bad input", out)
			}
		})
	}
	for _, db := range []string{"p.db", "p.duckdb"} {
		if _, err := os.Stat(filepath.Join(tmp, db)); err == nil {
			t.Errorf("%s was created on bad input", db)
		}
	}
}

func TestWisconsinCommandWritesRunDirectory(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := run("wisconsin", "--size", "1000", "--reps", "2", "--queries", "1-8,20", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "Table 1.") || !strings.Contains(stdout, "run directory: "+out) {
		t.Errorf("stdout lacks the tables or the run directory:\n%s", stdout)
	}
	for _, f := range []string{"manifest.json", "results.json", "journal.jsonl", "tables.txt", "wisconsin_tables.csv", "results_sqlite.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	var res struct {
		Experiment    string  `json:"experiment"`
		Engine        string  `json:"engine"`
		EngineVersion string  `json:"engine_version"`
		Sizes         []int64 `json:"sizes"`
		Queries       []struct {
			Query        int    `json:"query"`
			Size         int64  `json:"size"`
			Organization string `json:"organization"`
			Destination  string `json:"destination"`
			ExpectedRows int64  `json:"expected_rows"`
			Rows         int64  `json:"rows"`
			Status       string `json:"status"`
			Reps         int    `json:"reps"`
			ElapsedMS    struct {
				Median, Mean, Min, Max, Stddev float64
			} `json:"elapsed_ms"`
		} `json:"queries"`
	}
	b, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.Experiment != "wisconsin" || res.Engine != "sqlite" || res.EngineVersion == "" || len(res.Sizes) != 1 || len(res.Queries) == 0 {
		t.Errorf("results.json header: %+v", res)
	}
	for _, q := range res.Queries {
		if q.Status == "ok" && (q.Rows != q.ExpectedRows || q.Reps != 2 || q.ElapsedMS.Median <= 0) {
			t.Errorf("query %+v", q)
		}
	}
	var man map[string]any
	b, _ = os.ReadFile(filepath.Join(out, "manifest.json"))
	json.Unmarshal(b, &man)
	for _, k := range []string{"command", "config", "dbgauge_version", "engine", "system", "seed", "finished"} {
		if man[k] == nil {
			t.Errorf("manifest lacks %s", k)
		}
	}
}

func TestConfigFile(t *testing.T) {
	tmp := t.TempDir()
	cfg := writeFile(t, tmp, "c.yaml", "size: 1000\nreps: 1\nqueries: [20, 21]\n")
	out := filepath.Join(tmp, "run")
	code, _, stderr := run("wisconsin", "--config", cfg, "--queries", "20", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(out, "results.json"))
	// The flag overrides the file: only query 20, at the file's size.
	if strings.Contains(string(b), `"query": 21`) || !strings.Contains(string(b), `"size": 1000`) {
		t.Errorf("config not applied as expected:\n%.400s", b)
	}
}

func writeFile(t *testing.T, dir, name, body string) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func itoa(n int) string { return strconv.Itoa(n) }
