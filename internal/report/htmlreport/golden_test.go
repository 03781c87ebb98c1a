package htmlreport_test

// Golden files of the pages, in the style of
// golang.org/x/perf/cmd/benchstat/main_test.go: the whole report page of a
// small real run of every experiment (testdata/runs; README.md there says
// how they were made), and the compare page of two Wisconsin runs. Rewrite
// the goldens with
//
//	go test ./internal/report/htmlreport -run TestGolden -update

import (
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/golden"
	"github.com/dbgauge/dbgauge/internal/report/htmlreport"
)

// TestGoldenPages compares htmlreport.Build of each run directory with
// testdata/golden/<experiment>.html.golden.
func TestGoldenPages(t *testing.T) {
	for _, run := range []string{"wisconsin", "dsbench", "dsbench_nodes", "qac", "multiuser", "sizesweep", "abtest", "speedup", "storage"} {
		t.Run(run, func(t *testing.T) {
			got, err := htmlreport.Build(filepath.Join("testdata", "runs", run))
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "golden", run+".html.golden"), got)
		})
	}
}

// TestGoldenCompare compares the compare page of the two Wisconsin runs
// (wisconsin the baseline, wisconsin2 a larger SQLite cache) with
// testdata/golden/compare_wisconsin.html.golden.
func TestGoldenCompare(t *testing.T) {
	d, err := htmlreport.Compare([]string{
		filepath.Join("testdata", "runs", "wisconsin"),
		filepath.Join("testdata", "runs", "wisconsin2"),
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := htmlreport.Render(d)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "golden", "compare_wisconsin.html.golden"), got)
}
