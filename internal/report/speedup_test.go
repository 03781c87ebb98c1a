package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

func TestBytesLabel(t *testing.T) {
	for b, want := range map[int64]string{64e6: "64 MB", 256e3: "256 kB", 4096: "4 KiB", 256 << 20: "256 MiB", 65536: "64 KiB", 1 << 30: "1 GiB", 700: "700 B"} {
		if got := bytesLabel(b); got != want {
			t.Errorf("bytesLabel(%d) = %q, want %q", b, got, want)
		}
	}
}

func TestSpeedupTextAndCharts(t *testing.T) {
	r := &results.SpeedupResults{Header: results.Header{Engine: "postgres", EngineVersion: "15"}, Size: 1000, Reps: 2,
		Speedup: &results.SpeedupPart{Variable: "parallelism", Values: []int64{1, 2}, Applicable: true, Ref: 1, MemoryBytes: 1 << 20,
			Curves: []results.SpeedupCurve{{Query: 9, Class: "joinAselB", Org: "heap", Attribute: "unique2", Points: []results.SpeedupPoint{
				{X: 1, TimesMS: []float64{10, 10}, MedianMS: 10, Speedup: 1, Ideal: 1, HashBatches: 1, WorkersLaunched: 0, WorkersPlanned: 0, TempBytes: -1},
				{X: 2, TimesMS: []float64{8, 8}, MedianMS: 8, Speedup: 1.25, Ideal: 2, HashBatches: 1, WorkersLaunched: 1, WorkersPlanned: 1, TempBytes: -1},
			}}}},
		PageSize: &results.SpeedupPart{Variable: "page_size", Values: []int64{4096}, Reason: "fixed at build"},
	}
	txt := string(SpeedupText(r))
	for _, want := range []string{"Q9 joinAselB", "1.25", "page_size on postgres: not applicable: fixed at build"} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q:\n%s", want, txt)
		}
	}
	if csv := SpeedupCSV(r); !bytes.Contains(csv, []byte("not applicable: fixed at build")) {
		t.Errorf("CSV lacks the not-applicable row:\n%s", csv)
	}
	charts, err := SpeedupCharts(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"speedup.svg", "speedup.png", "response.svg", "response.png"} {
		if len(charts[f]) == 0 {
			t.Errorf("no %s", f)
		}
	}
	if !bytes.Contains(charts["speedup.svg"], []byte("ideal")) {
		t.Error("the speedup chart has no ideal line in its legend")
	}
}
