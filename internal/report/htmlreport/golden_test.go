package htmlreport_test

// Golden files of the pages, in the style of
// golang.org/x/perf/cmd/benchstat/main_test.go: the whole report page of a
// small real run of every experiment (testdata/runs; README.md there says
// how they were made), and the compare page of two Wisconsin runs. Rewrite
// the goldens with
//
//	go test ./internal/report/htmlreport -run TestGolden -update

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/report/htmlreport"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGoldenPages compares htmlreport.Build of each run directory with
// testdata/golden/<experiment>.html.golden.
func TestGoldenPages(t *testing.T) {
	for _, run := range []string{"wisconsin", "dsbench", "qac", "multiuser", "sizesweep", "abtest", "speedup", "storage"} {
		t.Run(run, func(t *testing.T) {
			got, err := htmlreport.Build(filepath.Join("testdata", "runs", run))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", "golden", run+".html.golden"), got)
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
	checkGolden(t, filepath.Join("testdata", "golden", "compare_wisconsin.html.golden"), got)
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
