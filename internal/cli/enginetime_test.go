package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestWisconsinEngineTime: a Wisconsin run records, beside the client's
// time of every repetition, the engine's own, from the source the engine
// has; the engine's time of a repetition lies within the client's where
// both clocks bracket the same execution (PostgreSQL); an engine
// without its own times, a server without the extension, and
// --engine-time=false say so.
func TestWisconsinEngineTime(t *testing.T) {
	for _, tc := range []struct {
		name, engine string
		settings     map[string]string
		args         []string
		source, none string
		within       bool // each engine sample within the client's
		updateNone   string
	}{
		{name: "postgres", engine: "postgres", source: "pg_stat_statements", within: true},
		{name: "postgres-without-extension", engine: "postgres", settings: map[string]string{"shared_preload_libraries": ""},
			source: "explain analyze (a separate execution)", updateNone: "a second execution would change the data"},
		// MariaDB's statement event ends after its reply went out: no
		// "within" (the adapter's note says so).
		{name: "mariadb", engine: "mariadb", source: "performance_schema"},
		{name: "duckdb", source: "duckdb profiling"},
		{name: "sqlite", engine: "sqlite", none: "SQLite keeps no time of its own"},
		{name: "off", engine: "sqlite", args: []string{"--engine-time=false"}, none: "--engine-time=false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			db := "duckdb:" + filepath.Join(dir, "w.db")
			switch tc.engine {
			case "postgres", "mariadb":
				db = servertest.Start(t, tc.engine, server.Options{Settings: tc.settings}).URL
			case "sqlite":
				db = "sqlite:" + filepath.Join(dir, "w.db")
			}
			out := filepath.Join(dir, "run")
			res := runFor[results.WisconsinResults](t, out, append([]string{"wisconsin", "--db", db, "--size", "1000", "--reps", "3", "--queries", "1,2,9,26", "--org", "heap", "--dest", "relation,client"}, tc.args...)...)
			et := res.EngineTime
			if et == nil || et.Source != tc.source || !strings.Contains(et.None, tc.none) || (tc.none == "") != (et.None == "") {
				t.Fatalf("engine_time %+v: want source %q, none %q", et, tc.source, tc.none)
			}
			tables, _ := os.ReadFile(filepath.Join(out, "tables.txt"))
			if !strings.Contains(string(tables), "Where the time goes") {
				t.Errorf("tables.txt has no engine time table")
			}
			for _, q := range res.Queries {
				e := q.Engine
				switch {
				case q.Status != results.StatusOK:
					t.Errorf("Q%d %s: %s %s", q.Query, q.Destination, q.Status, q.Reason)
				case tc.none != "":
					if e != nil {
						t.Errorf("Q%d %s: engine times %+v without a source", q.Query, q.Destination, e)
					}
				case q.Destination == results.DestUpdate && tc.updateNone != "":
					if e != nil || !strings.Contains(q.EngineNone, tc.updateNone) {
						t.Errorf("Q%d: engine %+v, %q: want none, saying %q", q.Query, e, q.EngineNone, tc.updateNone)
					}
				case e == nil || len(e.TotalSamplesMS) != q.Reps || e.TotalMS.Median <= 0:
					t.Errorf("Q%d %s: engine times %+v (%q): want one per repetition", q.Query, q.Destination, e, q.EngineNone)
				case tc.within:
					for i, v := range e.TotalSamplesMS {
						if v > q.SamplesMS[i] {
							t.Errorf("Q%d %s repetition %d: engine %.3f ms, client %.3f ms: the engine's time must lie within the client's", q.Query, q.Destination, i+1, v, q.SamplesMS[i])
						}
					}
				}
			}
			if tc.none == "" {
				if _, err := os.Stat(filepath.Join(out, "enginetime_"+res.Engine+".csv")); err != nil {
					t.Errorf("no enginetime csv: %v", err)
				}
			}
		})
	}
}

// TestABTestEngineTime: abtest compares the engines' own times of the
// pairs beside the client's, when both report them (PostgreSQL); SQLite
// says it keeps none.
func TestABTestEngineTime(t *testing.T) {
	for _, tc := range []struct {
		name, engine, none string
	}{{"postgres", "postgres", ""}, {"sqlite", "sqlite", "SQLite keeps no time of its own"}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			db := "sqlite:" + filepath.Join(dir, "w.db")
			if tc.engine == "postgres" {
				db = servertest.Start(t, "postgres", server.Options{}).URL
			}
			out := filepath.Join(dir, "run")
			res := runFor[results.ABTestResults](t, out, "abtest", "--db", db, "--a-session", "SELECT 1", "--b-session", "SELECT 2", "--wisconsin", "1,9", "--size", "1000", "--reps", "3", "--dest", "client")
			if res.EngineTimeA == nil || res.EngineTimeB == nil || !strings.Contains(res.EngineTimeA.None, tc.none) || (tc.none == "") != (res.EngineTimeA.None == "") {
				t.Fatalf("engine times A %+v, B %+v: want none %q", res.EngineTimeA, res.EngineTimeB, tc.none)
			}
			for _, q := range res.Queries {
				for _, r := range q.Runs {
					if tc.none != "" {
						if r.EngineComparison != nil {
							t.Errorf("%s %s: an engine comparison without engine times", q.Label, r.Cache)
						}
						continue
					}
					if r.EngineComparison == nil || len(r.AEngineMS) != len(r.AMS) || len(r.BEngineMS) != len(r.BMS) || r.EngineComparison.RateA <= 0 {
						t.Errorf("%s %s: engine comparison %+v, %d/%d engine times (%q): want one per pair", q.Label, r.Cache, r.EngineComparison, len(r.AEngineMS), len(r.AMS), r.EngineNone)
						continue
					}
					for i := range r.AMS {
						if r.AEngineMS[i] > r.AMS[i] || r.BEngineMS[i] > r.BMS[i] {
							t.Errorf("%s pair %d: engine %.3f/%.3f ms, client %.3f/%.3f ms: want the engine's within the client's", q.Label, i+1, r.AEngineMS[i], r.BEngineMS[i], r.AMS[i], r.BMS[i])
						}
					}
				}
			}
			txt, _ := os.ReadFile(filepath.Join(out, "abtest.txt"))
			if !strings.Contains(string(txt), "engines' own times") {
				t.Errorf("abtest.txt has no engine time table")
			}
			// The manifest says what each variant's timed session
			// recorded, after a new session's (PostgreSQL only: SQLite
			// has no statement instrumentation to read).
			man := readJSON[results.Manifest](t, filepath.Join(out, results.ManifestFile))
			want := 0
			if tc.engine == "postgres" {
				want = 3
			}
			if len(man.Instrumentation) != want ||
				(want > 0 && (man.Instrumentation[1].Settings["pg_stat_statements.track"] != "top" || man.Instrumentation[2].Settings["pg_stat_statements.track"] != "top")) {
				t.Errorf("manifest instrumentation %+v: want %d sessions, the variants' tracking", man.Instrumentation, want)
			}
		})
	}
}

// TestSizeSweepEngineTime: sizesweep reads the engine's own time of
// every retrieve beside the client's (DuckDB's profiler) and reports its
// median per size and method.
func TestSizeSweepEngineTime(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	res := runFor[results.SizeSweepResults](t, out, "sizesweep", "--db", "duckdb:"+filepath.Join(dir, "s.db"), "--sizes", "1000,2000", "--reps", "3", "--warmup", "1")
	if res.EngineTime == nil || res.EngineTime.Source != "duckdb profiling" {
		t.Fatalf("engine_time %+v: want duckdb profiling", res.EngineTime)
	}
	for _, p := range res.Points {
		if len(p.EngineMS) != len(p.TimesMS) || p.EngineSummary == nil || p.EngineSummary.Median <= 0 {
			t.Errorf("N=%d %s: %d engine times for %d retrieves, summary %+v (%q)", p.Size, p.Access, len(p.EngineMS), len(p.TimesMS), p.EngineSummary, p.EngineNone)
		}
	}
	txt, _ := os.ReadFile(filepath.Join(out, "sizesweep.txt"))
	if !strings.Contains(string(txt), "_engine_median") || !strings.Contains(string(txt), "engine time from duckdb profiling") {
		t.Errorf("sizesweep.txt lacks the engine column or its source:\n%s", txt)
	}
}

// TestSpeedupEngineTime: speedup reads the engine's own time of every
// repetition at every degree of parallelism (DuckDB's profiler).
func TestSpeedupEngineTime(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	res := runFor[results.SpeedupResults](t, out, "speedup", "--db", "duckdb:"+filepath.Join(dir, "s.db"), "--parallelism", "1,2", "--size", "1000", "--reps", "2")
	if res.Speedup == nil || len(res.Speedup.Curves) == 0 {
		t.Fatalf("no speedup curves: %+v", res.Speedup)
	}
	for _, c := range res.Speedup.Curves {
		for _, p := range c.Points {
			if len(p.EngineMS) != len(p.TimesMS) || p.EngineMedianMS <= 0 || p.EngineNone != "" {
				t.Errorf("%s p=%d: %d engine times for %d repetitions, median %.3f (%q)", c.Class, p.X, len(p.EngineMS), len(p.TimesMS), p.EngineMedianMS, p.EngineNone)
			}
		}
	}
}

// runFor runs dbgauge with args into the run directory out, which must
// succeed, and returns its results.json.
func runFor[T any](t *testing.T, out string, args ...string) T {
	t.Helper()
	if code, _, stderr := run(append(args, "--out", out)...); code != 0 {
		t.Fatalf("dbgauge %v: exit %d: %s", args, code, stderr)
	}
	return readJSON[T](t, filepath.Join(out, "results.json"))
}
