package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/report/htmlreport"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// The probe is an experiment defined in this file only: it times a
// trivial query on the embedded engine. Registering it here, and nowhere
// else, must give it a command, results.json, a catalog row with its
// headline, bench.txt lines, a report page and a compare page.

type probeResults struct {
	results.Header
	Reps    int       `json:"reps"`
	TimesMS []float64 `json:"times_ms"`
}

type probeFlags struct {
	db, out string
	reps    int
}

func (f *probeFlags) bind(fs *pflag.FlagSet) {
	fs.StringVar(&f.db, "db", "", "engine URL (default: SQLite in the run directory)")
	fs.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-probe)")
	fs.IntVar(&f.reps, "reps", 3, "timed queries")
}

func (f *probeFlags) plan() (int, error) {
	if f.reps < 1 {
		return 0, usagef("--reps %d: give at least 1", f.reps)
	}
	return f.reps, nil
}

func (f *probeFlags) target() (string, string) { return f.db, f.out }

func runProbe(ctx context.Context, s experiment.Setup, reps int, _ *progress.Printer) (*probeResults, error) {
	run, err := results.Create(s.Dir)
	if err != nil {
		return nil, err
	}
	defer run.Close()
	db := s.DB
	if db == "" {
		db = "sqlite:" + filepath.Join(s.Dir, "probe.db")
	}
	e, err := dbms.Open(ctx, db)
	if err != nil {
		return nil, err
	}
	defer e.Close()
	info, err := e.Info(ctx)
	if err != nil {
		return nil, err
	}
	m := results.Manifest{Experiment: "probe", Command: s.Command, Config: s.Config, Dbgauge: s.Version, Started: time.Now()}
	m.Engine.Engine, m.Engine.Version = e.Name(), info.Version
	if err := run.WriteJSON(results.ManifestFile, m); err != nil {
		return nil, err
	}
	res := &probeResults{Header: results.Header{Experiment: "probe", Engine: e.Name(), EngineVersion: info.Version}, Reps: reps}
	for range reps {
		start := time.Now()
		n, err := e.QueryCount(ctx, "SELECT 1")
		if err != nil {
			return res, err
		}
		if n != 1 {
			return res, fmt.Errorf("SELECT 1 gave %d rows", n)
		}
		res.TimesMS = append(res.TimesMS, float64(time.Since(start).Nanoseconds())/1e6)
	}
	res.Complete = true
	return res, run.WriteJSON(results.ResultsFile, res)
}

func init() {
	results.Register(results.Kind{Name: "probe", Title: "probe",
		New: func() results.Results { return &probeResults{} },
		Headline: func(r results.Results) results.Headline {
			med := stats.Summarize(r.(*probeResults).TimesMS).Median
			return results.Headline{Label: "median probe time", Value: &med, Text: fmt.Sprintf("%.4g ms", med)}
		},
		Bench: func(w *results.BenchWriter, r results.Results, _ string) {
			for _, ms := range r.(*probeResults).TimesMS {
				w.Line([]string{"Probe", "query=select1"}, 1, results.NS(ms, "ns/op"))
			}
		},
	})
	htmlreport.RegisterPage(htmlreport.PageKind{Name: "probe",
		Doc: func(r *htmlreport.Run, d *htmlreport.Doc) error {
			t := &report.Table{Title: []string{"Probe times"}, Rows: [][]string{{"rep", "ms"}}}
			for i, ms := range r.Results.(*probeResults).TimesMS {
				t.Rows = append(t.Rows, []string{fmt.Sprint(i + 1), fmt.Sprintf("%.4f", ms)})
			}
			d.Sections = append(d.Sections, htmlreport.Section{ID: "probe", Title: "Probe times", Table: t})
			return nil
		},
		Metrics: func(r *htmlreport.Run) []htmlreport.Metric {
			return []htmlreport.Metric{{Key: "select1", Label: "probe query time", Unit: "ms",
				Better: stats.SmallerIsBetter, Samples: r.Results.(*probeResults).TimesMS}}
		},
	})
	experimentCmd[int, *probeResults]{name: "probe", use: "probe [--reps N]", short: "Time SELECT 1 (a test-only experiment)", hidden: true,
		flags: func() experimentFlags[int] { return &probeFlags{} },
		run:   runProbe,
		summary: func(r *probeResults, dir string) []byte {
			return []byte(fmt.Sprintf("probe: %d times\n", len(r.TimesMS)) + runDirLine(dir, "results.json"))
		},
	}.register()
}

// TestRegisteredExperiment follows the probe from its command to its
// compare page.
func TestRegisteredExperiment(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	os.MkdirAll(runs, 0o755)
	if code, _, stderr := run("list", "--dir", runs); code != 0 { // makes the catalog
		t.Fatalf("list: exit %d: %s", code, stderr)
	}
	if code, stdout, _ := run("probe", "--help"); code != 0 || !strings.Contains(stdout, "--reps") {
		t.Fatalf("probe --help: exit %d:\n%s", code, stdout)
	}
	if code, _, stderr := run("probe", "--reps", "0", "--out", filepath.Join(runs, "bad")); code != ExitBadInput || !strings.Contains(stderr, "--reps") {
		t.Errorf("probe --reps 0: exit %d, want %d and a line naming --reps: %s", code, ExitBadInput, stderr)
	}
	dirs := []string{filepath.Join(runs, "a"), filepath.Join(runs, "b")}
	for _, dir := range dirs {
		code, stdout, stderr := run("probe", "--reps", "5", "--out", dir)
		if code != 0 {
			t.Fatalf("probe: exit %d: %s", code, stderr)
		}
		if !strings.Contains(stdout, "probe: 5 times") || !strings.Contains(stdout, "report: "+filepath.Join(dir, "report.html")) {
			t.Errorf("probe's summary:\n%s", stdout)
		}
		var res probeResults
		b, err := os.ReadFile(filepath.Join(dir, results.ResultsFile))
		if err != nil || json.Unmarshal(b, &res) != nil || res.Experiment != "probe" || !res.Complete || len(res.TimesMS) != 5 {
			t.Fatalf("results.json: %v %+v", err, res)
		}
		bench, err := os.ReadFile(filepath.Join(dir, results.BenchFile))
		if err != nil || strings.Count(string(bench), "BenchmarkProbe/query=select1") != 5 {
			t.Errorf("bench.txt: %v\n%s", err, bench)
		}
		page, err := os.ReadFile(filepath.Join(dir, "report.html"))
		if err != nil || !strings.Contains(string(page), "Probe times") || !strings.Contains(string(page), "dbgauge probe") {
			t.Errorf("report.html lacks the probe's section (%v)", err)
		}
	}
	code, stdout, stderr := run("list", "--dir", runs)
	if code != 0 || strings.Count(stdout, "probe") < 2 || !strings.Contains(stdout, "median probe time") {
		t.Errorf("list: exit %d: the catalog rows lack the probe runs or their headline:\n%s%s", code, stdout, stderr)
	}
	html := filepath.Join(t.TempDir(), "compare.html")
	if code, _, stderr := run("compare", dirs[0], dirs[1], "--html", html); code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), "probe query time") || !strings.Contains(string(page), "Comparison: 2 probe runs") {
		t.Errorf("the compare page lacks the probe's metric (%v)", err)
	}
}
