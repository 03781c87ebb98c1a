package report_test

// Golden files of the text tables, in the style of
// golang.org/x/perf/cmd/benchstat/main_test.go: for every experiment the
// main .txt table the run writes, rendered again from the stored
// results.json of a small real run (../report/htmlreport/testdata/runs,
// the same fixtures the page goldens read; README.md there says how they
// were made). Rewrite the goldens with
//
//	go test ./internal/report -run TestGoldenTables -update

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenRuns is the one copy of the run directories, shared with the
// htmlreport goldens.
const goldenRuns = "htmlreport/testdata/runs"

// TestGoldenTables renders each experiment's main table with the function
// its run uses to write it (see internal/experiment) and compares it with
// testdata/golden/<experiment>.txt.golden.
func TestGoldenTables(t *testing.T) {
	tables := []struct {
		run  string // directory under goldenRuns
		file string // the table the run writes
		text func(t *testing.T, res any) []byte
	}{
		{"wisconsin", "tables.txt", func(t *testing.T, res any) []byte {
			return report.WisconsinText([]*results.WisconsinResults{as[*results.WisconsinResults](t, res)})
		}},
		{"dsbench", "results.txt", func(t *testing.T, res any) []byte {
			return report.DSBenchTables(as[*results.DSBenchResults](t, res))["results.txt"]
		}},
		{"qac", "qac.txt", func(t *testing.T, res any) []byte {
			return report.QACText(as[*results.QACResults](t, res))
		}},
		{"multiuser", "multiuser.txt", func(t *testing.T, res any) []byte {
			return report.MultiuserText(as[*results.MultiuserResults](t, res))
		}},
		{"sizesweep", "sizesweep.txt", func(t *testing.T, res any) []byte {
			return report.SizeSweepText(as[*results.SizeSweepResults](t, res))
		}},
		{"abtest", "abtest.txt", func(t *testing.T, res any) []byte {
			return report.ABTestText(as[*results.ABTestResults](t, res))
		}},
		{"speedup", "speedup.txt", func(t *testing.T, res any) []byte {
			return report.SpeedupText(as[*results.SpeedupResults](t, res))
		}},
		{"storage", "storage.txt", func(t *testing.T, res any) []byte {
			return report.StorageText(as[*results.StorageResults](t, res))
		}},
	}
	for _, tc := range tables {
		t.Run(tc.run, func(t *testing.T) {
			s, err := results.ReadRun(filepath.Join(goldenRuns, tc.run))
			if err != nil {
				t.Fatal(err)
			}
			if s.Experiment != tc.run {
				t.Fatalf("%s: experiment %q, want %q", tc.run, s.Experiment, tc.run)
			}
			got := tc.text(t, s.Results)
			checkGolden(t, filepath.Join("testdata", "golden", tc.run+"_"+tc.file+".golden"), got)
		})
	}
}

// as is res as the experiment's results type.
func as[T any](t *testing.T, res any) T {
	t.Helper()
	v, ok := res.(T)
	if !ok {
		var want T
		t.Fatalf("results are %T, want %T", res, want)
	}
	return v
}

// checkGolden compares got with the golden file (or rewrites it with
// -update); a mismatch prints the first differing lines.
func checkGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update if the change is intended):\n%s", golden, lineDiff(want, got))
	}
}

// lineDiff is a short unified-ish diff: the first differing lines with
// their line numbers, "-" from the golden file, "+" from the output.
func lineDiff(want, got []byte) string {
	const maxLines = 20
	w := strings.Split(string(want), "\n")
	g := strings.Split(string(got), "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		wok, gok := i < len(w), i < len(g)
		if wok {
			wl = w[i]
		}
		if gok {
			gl = g[i]
		}
		if wok && gok && wl == gl {
			continue
		}
		if shown == maxLines {
			b.WriteString("...\n")
			break
		}
		if wok {
			fmt.Fprintf(&b, "-%d: %s\n", i+1, wl)
		}
		if gok {
			fmt.Fprintf(&b, "+%d: %s\n", i+1, gl)
		}
		shown++
	}
	fmt.Fprintf(&b, "(golden %d lines, output %d lines)\n", len(w), len(g))
	return b.String()
}
