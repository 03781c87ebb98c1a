package results_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// The Go benchmark format, strictly (golang.org/design/14313): a result
// line is "Benchmark<name> <iterations>" and one or more "<value> <unit>"
// pairs; a configuration line is "<key>: <value>" with a key that starts
// lower case and holds no space nor upper case letter; a unit metadata
// line is "Unit <unit> <key>=<value>".
var (
	resultLine = regexp.MustCompile(`^Benchmark(\S+) (\d+)((?: \S+ \S+)+)$`)
	configLine = regexp.MustCompile(`^([a-z][^\s:A-Z]*): (\S.*)$`)
	unitLine   = regexp.MustCompile(`^Unit (\S+) better=(higher|lower)$`)
	procsPart  = regexp.MustCompile(`^(.+)-(\d+)$`)
)

// benchResult is one parsed result line.
type benchResult struct {
	name   string // without the -N suffix
	procs  int    // 0 without one
	iters  int64
	values map[string]float64
	order  []string // units in the order written
}

type benchFile struct {
	config  map[string]string
	better  map[string]string
	results []benchResult
}

// parseBench parses b strictly: every line must be one of the three kinds,
// configuration before the first result, every value a finite
// non-negative number, every unit not a number, and no empty name part.
func parseBench(t *testing.T, b []byte) benchFile {
	t.Helper()
	f := benchFile{config: map[string]string{}, better: map[string]string{}}
	text := string(b)
	if !strings.HasSuffix(text, "\n") {
		t.Fatalf("export does not end with a newline")
	}
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if m := resultLine.FindStringSubmatch(l); m != nil {
			r := benchResult{name: m[1], values: map[string]float64{}}
			if p := procsPart.FindStringSubmatch(m[1]); p != nil {
				r.name, r.procs = p[1], atoi(t, p[2])
			}
			for _, part := range strings.Split(r.name, "/") {
				if part == "" {
					t.Errorf("line %d: empty name part: %q", i+1, l)
				}
			}
			r.iters = int64(atoi(t, m[2]))
			pairs := strings.Fields(m[3])
			for j := 0; j < len(pairs); j += 2 {
				v, err := strconv.ParseFloat(pairs[j], 64)
				if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					t.Errorf("line %d: value %q: %v", i+1, pairs[j], err)
				}
				if _, err := strconv.ParseFloat(pairs[j+1], 64); err == nil {
					t.Errorf("line %d: unit %q is a number", i+1, pairs[j+1])
				}
				if _, dup := r.values[pairs[j+1]]; dup {
					t.Errorf("line %d: unit %s twice", i+1, pairs[j+1])
				}
				r.values[pairs[j+1]] = v
				r.order = append(r.order, pairs[j+1])
			}
			f.results = append(f.results, r)
			continue
		}
		if m := configLine.FindStringSubmatch(l); m != nil {
			if len(f.results) > 0 {
				t.Errorf("line %d: configuration %q after results", i+1, l)
			}
			f.config[m[1]] = m[2]
			continue
		}
		if m := unitLine.FindStringSubmatch(l); m != nil {
			f.better[m[1]] = m[2]
			continue
		}
		t.Errorf("line %d is not in the benchmark format: %q", i+1, l)
	}
	return f
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// count is how many results have a name starting with prefix.
func (f benchFile) count(prefix string) int {
	n := 0
	for _, r := range f.results {
		if strings.HasPrefix(r.name, prefix) {
			n++
		}
	}
	return n
}

// BenchLines on every experiment's real run directory: every line in the
// format, the configuration the comparisons rely on, one result per
// repetition with the stored values.
func TestBenchLines(t *testing.T) {
	root := runsFixture(t)
	for exp, dir := range fixtureRuns {
		t.Run(exp, func(t *testing.T) {
			dir := filepath.Join(root, dir)
			b, err := results.BenchLines(dir)
			if err != nil {
				t.Fatal(err)
			}
			f := parseBench(t, b)
			s, err := results.ReadRun(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.results) == 0 && exp == "qac" && keptQEs(s.Results.(*results.QACResults)) == 0 {
				// On a disturbed machine the protocol may keep no QE:
				// then there is nothing to compare, and nothing exported.
				t.Skipf("the timing protocol kept no QE of this run")
			}
			if len(f.results) == 0 {
				t.Fatalf("no results:\n%s", b)
			}
			for _, r := range f.results {
				if r.procs != s.Manifest.System.CPUs || r.procs == 0 {
					t.Fatalf("%s: suffix -%d, want the machine's %d CPUs", r.name, r.procs, s.Manifest.System.CPUs)
				}
				for u := range r.values {
					if u != "ns/op" && u != "MB/s" && f.better[u] == "" {
						t.Errorf("unit %s has no Unit better= line", u)
					}
				}
			}
			for _, k := range []string{"goos", "goarch", "pkg", "cpu"} {
				if f.config[k] == "" {
					t.Errorf("configuration %s missing: %v", k, f.config)
				}
			}
			if f.config["goos"] != "linux" || f.config["pkg"] != "dbgauge" || f.config["goarch"] != s.Manifest.System.Arch {
				t.Errorf("configuration %v", f.config)
			}
			checkBench(t, exp, s, f)
		})
	}
}

// checkBench compares an experiment's results with its stored results.
func checkBench(t *testing.T, exp string, s *results.Stored, f benchFile) {
	t.Helper()
	engine := s.Manifest.Engine.Engine + " " + s.Manifest.Engine.Version
	if exp != "abtest" && exp != "storage" && f.config["engine"] != engine {
		t.Errorf("engine: %q, want %q", f.config["engine"], engine)
	}
	want := 0
	switch r := s.Results.(type) {
	case *results.WisconsinResults:
		var first []float64
		for _, q := range r.Queries {
			if q.Status == results.StatusOK {
				want += len(q.SamplesMS)
				if first == nil {
					first = q.SamplesMS
				}
			}
		}
		// The first query's executions, in order, in nanoseconds.
		for i, ms := range first {
			if got := f.results[i].values["ns/op"]; got != math.Round(ms*1e6) || f.results[i].iters != 1 {
				t.Errorf("execution %d: %v ns/op x %d, stored %v ms", i+1, got, f.results[i].iters, ms)
			}
		}
		if !strings.HasPrefix(f.results[0].name, "Wisconsin/Q1/N=1000/org=heap/dest=") {
			t.Errorf("name %q", f.results[0].name)
		}
	case *results.DSBenchResults:
		i := 0
		for _, sc := range r.Scales {
			var iters int64
			for _, c := range sc.Cycles {
				res := f.results[i]
				i++
				iters += res.iters
				if res.name != "DSBench/mode=tpcb/scale="+strconv.FormatInt(sc.Scale, 10) || res.values["tx/s"] != c {
					t.Errorf("%s: %v tx/s, stored cycle rate %v", res.name, res.values["tx/s"], c)
				}
				p50, p95, p99 := res.values["p50-ns/tx"], res.values["p95-ns/tx"], res.values["p99-ns/tx"]
				if p50 <= 0 || p95 < p50 || p99 < p95 || strings.Join(res.order, " ") != "tx/s p50-ns/tx p95-ns/tx p99-ns/tx" {
					t.Errorf("%s: residence quantiles %v %v %v (%v)", res.name, p50, p95, p99, res.order)
				}
			}
			// The iteration counts are the committed transactions.
			if iters != sc.Transactions {
				t.Errorf("scale %d: iterations add up to %d, transactions %d", sc.Scale, iters, sc.Transactions)
			}
			want += len(sc.Cycles)
		}
		if f.better["tx/s"] != "higher" || f.better["p99-ns/tx"] != "lower" {
			t.Errorf("unit metadata %v", f.better)
		}
	case *results.MultiuserResults:
		want = len(r.Runs)
		if f.count("Multiuser/users=0") != r.Reps || f.count("Multiuser/users=2") != r.Reps {
			t.Errorf("%d results at 0 users, %d at 2, want %d each", f.count("Multiuser/users=0"), f.count("Multiuser/users=2"), r.Reps)
		}
	case *results.SizeSweepResults:
		for _, p := range r.Points {
			want += len(p.TimesMS)
		}
		if f.count("SizeSweep/retrieve=single/access=clustered/N=500") != r.Reps {
			t.Errorf("%d results for clustered N=500, want %d", f.count("SizeSweep/retrieve=single/access=clustered/N=500"), r.Reps)
		}
	case *results.ABTestResults:
		for _, q := range r.Queries {
			for _, run := range q.Runs {
				want += len(run.AMS) + len(run.BMS)
			}
		}
		a, b := f.count("ABTest/Q9/cache=warm/variant=A"), f.count("ABTest/Q9/cache=warm/variant=B")
		if a != r.Reps || b != r.Reps {
			t.Errorf("Q9: %d results of A, %d of B, want %d each", a, b, r.Reps)
		}
		if f.config["variant-a"] != r.A.Engine+" "+r.A.EngineVersion || f.config["variant-b"] == "" {
			t.Errorf("configuration %v", f.config)
		}
	case *results.SpeedupResults:
		for _, c := range r.Speedup.Curves {
			for _, p := range c.Points {
				want += len(p.TimesMS)
			}
		}
		if f.count("Speedup/Q9/org=heap/p=2") != r.Reps {
			t.Errorf("%d results for Q9 at p=2, want %d", f.count("Speedup/Q9/org=heap/p=2"), r.Reps)
		}
	case *results.QACResults:
		want = keptQEs(r)
		for _, res := range f.results {
			if !strings.HasPrefix(res.name, "QAC/Q1/card=") || res.order[0] != "ns/op" || res.order[1] != "computed-ns/op" {
				t.Errorf("%s: %v", res.name, res.order)
			}
		}
	case *results.StorageResults:
		if f.config["filesystem"] != r.FileSystem || f.config["engine"] != "" {
			t.Errorf("configuration %v", f.config)
		}
		want = 2
		for _, lt := range append(append([]results.LatencyTest{}, r.RandomReads...), r.SyncWrites...) {
			test := results.StorageRandomRead
			if strings.HasPrefix(lt.Method, "pwrite") {
				test = results.StorageSyncWrite
			}
			name := "Storage/test=" + test + "/block=" + strconv.FormatInt(lt.BlockBytes>>10, 10) + "KiB"
			hs, err := results.ReadHistogramLog(filepath.Join(s.Dir, results.StorageHistogramFile(test, lt.BlockBytes)))
			if err != nil {
				t.Fatal(err)
			}
			// One result per interval; together, every operation.
			var ops int64
			for _, res := range f.results {
				if res.name == name {
					ops += res.iters
					if res.values["p50-ns/op"] <= 0 || res.values["p99-ns/op"] < res.values["p50-ns/op"] {
						t.Errorf("%s: %v", name, res.values)
					}
				}
			}
			if f.count(name) != len(hs) || ops != lt.Ops {
				t.Errorf("%s: %d results, %d operations; the log has %d intervals, the test %d operations", name, f.count(name), ops, len(hs), lt.Ops)
			}
			want += len(hs)
		}
		if res := f.results[0]; res.name != "Storage/test=seq_write/block=1024KiB" || res.values["MB/s"] != r.SeqWrite.MBps {
			t.Errorf("sequential write: %+v, stored %v MB/s", res, r.SeqWrite.MBps)
		}
	default:
		t.Fatalf("experiment %s not checked", exp)
	}
	if len(f.results) != want {
		t.Errorf("%d results, want %d (one per repetition)", len(f.results), want)
	}
}

// keptQEs counts the QEs the timing protocol kept, in the Q@Cs it kept.
func keptQEs(r *results.QACResults) int {
	n := 0
	for _, q := range r.QaCs {
		if !q.Retained {
			continue
		}
		for _, qe := range q.QEs {
			if !qe.Dropped && qe.Error == "" {
				n++
			}
		}
	}
	return n
}

// Name parts keep to one field, and without a manifest there is no -N
// suffix; a run without results.json has nothing to export.
func TestBenchLinesNamesAndMissingResults(t *testing.T) {
	dir := t.TempDir()
	res := results.ABTestResults{Header: results.Header{Experiment: "abtest", Complete: true}, Workload: "sql", Queries: []results.ABQuery{{
		Label: "sql 1", Runs: []results.ABCacheRun{{Cache: "warm", Status: results.StatusOK, AMS: []float64{1.5}, BMS: []float64{0.25}}}}, {
		// one "=" only, and no trailing -N that benchstat would read as the CPU count
		Label: "x=1=2 q-3", Runs: []results.ABCacheRun{{Cache: "warm", Status: results.StatusOK, AMS: []float64{2}, BMS: []float64{3}}}}}}
	b, _ := json.Marshal(res)
	os.WriteFile(filepath.Join(dir, "results.json"), b, 0o644)
	out, err := results.BenchLines(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := "pkg: dbgauge\nBenchmarkABTest/sql_1/cache=warm/variant=A 1 1500000 ns/op\nBenchmarkABTest/sql_1/cache=warm/variant=B 1 250000 ns/op\n" +
		"BenchmarkABTest/x=1_2_q_3/cache=warm/variant=A 1 2000000 ns/op\nBenchmarkABTest/x=1_2_q_3/cache=warm/variant=B 1 3000000 ns/op\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if err := results.WriteBench(dir); err != nil {
		t.Fatal(err)
	}
	if written, _ := os.ReadFile(filepath.Join(dir, results.BenchFile)); string(written) != want {
		t.Errorf("bench.txt: %q", written)
	}

	os.Remove(filepath.Join(dir, "results.json"))
	os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"experiment":"wisconsin"}`), 0o644)
	if _, err := results.BenchLines(dir); err == nil {
		t.Error("a run without results.json was exported")
	}
}

// An interval log that cannot be read costs only its quantiles: the test's
// summary line is exported and the error names the log.
func TestBenchLinesDamagedLog(t *testing.T) {
	dir := t.TempDir()
	res := results.StorageResults{Header: results.Header{Experiment: "storage", Complete: true},
		RandomReads: []results.LatencyTest{{BlockBytes: 4096, Ops: 100, MeanUS: 80, P50US: 70, P99US: 200}}}
	b, _ := json.Marshal(res)
	os.WriteFile(filepath.Join(dir, "results.json"), b, 0o644)
	log := results.StorageHistogramFile(results.StorageRandomRead, 4096)
	os.WriteFile(filepath.Join(dir, log), []byte("#[StartTime: 1\nnot,a,histogram\n"), 0o644)
	err := results.WriteBench(dir)
	if err == nil || !strings.Contains(err.Error(), log) {
		t.Errorf("error %v, want one naming %s", err, log)
	}
	out, rerr := os.ReadFile(filepath.Join(dir, results.BenchFile))
	if rerr != nil {
		t.Fatal(rerr)
	}
	if want := "BenchmarkStorage/test=random_read/block=4KiB 100 80000 ns/op 70000 p50-ns/op 200000 p99-ns/op\n"; !strings.Contains(string(out), want) {
		t.Errorf("bench.txt lacks the summary line %q:\n%s", want, out)
	}
}
