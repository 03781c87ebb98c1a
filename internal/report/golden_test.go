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
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/golden"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

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
			golden.Check(t, filepath.Join("testdata", "golden", tc.run+"_"+tc.file+".golden"), got)
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
