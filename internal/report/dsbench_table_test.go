package report

import (
	"encoding/csv"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// syntheticDSBench is a 4-scale sweep on 2 nodes x 2 threads, 5 cycles of
// 60 s, filled the way the experiment fills it: counts per (cycle, node,
// thread), then stats.SummarizeScale and the confidence rates.
func syntheticDSBench(t *testing.T) *results.DSBenchResults {
	t.Helper()
	r := &results.DSBenchResults{
		Header: results.Header{Experiment: "dsbench", Engine: "postgres", EngineVersion: "17.2", Complete: true}, Mode: "tpcb", Form: "procedure",
		Nodes: 2, Threads: 2, Connections: 1, Cycles: 5, DurationS: 60, Isolation: "repeatable read",
		Confidence: []float64{50, 68, 87, 95, 99, 99.7},
	}
	base := map[int64]float64{1: 300, 10: 1200, 100: 800, 1000: 40} // tps per thread
	for si, scale := range []int64{1, 10, 100, 1000} {
		s := results.ScaleResult{Scale: scale, DBSizeBytes: scale * 15_000_000, Consistent: true,
			PopulateS: 0.5 * float64(scale), PrimaryKeyS: 0.1 * float64(scale), ForeignKeyS: 0.05 * float64(scale), CleanupS: 0.02, DropS: 0.01}
		var rows []stats.ThreadCycle
		for c := 1; c <= r.Cycles; c++ {
			for n := 1; n <= r.Nodes; n++ {
				for j := 1; j <= r.Threads; j++ {
					m := int64(base[scale]*60) + int64(100*c*n+10*j)
					d := results.CycleDetail{Cycle: c, Node: n, Thread: j, Committed: m, Failed: int64(4 - si),
						SumS: 59.5, EffectS: 59.9 + 0.01*float64(j)}
					s.CycleDetail = append(s.CycleDetail, d)
					rows = append(rows, stats.ThreadCycle(d)) // same fields: a conversion
				}
			}
		}
		st, err := stats.SummarizeScale(rows, r.Cycles, r.DurationS)
		if err != nil {
			t.Fatal(err)
		}
		s.MedianTPS, s.MeanTPS, s.StddevTPS, s.MinTPS, s.MaxTPS = st.Median, st.Mean, st.StdDev, st.Min, st.Max
		s.Transactions, s.Failed, s.ResidenceS, s.EffectiveS, s.F, s.Cycles = st.Transactions, st.Failed, st.ResidenceS, st.EffectiveS, st.F, st.Cycles
		// residence times: log-normal-ish points around 1/(rate per thread)
		med := 1e6 / base[scale]
		for _, q := range []float64{0, 0.1, 0.5, 0.68, 0.87, 0.9, 0.95, 0.99, 0.997, 0.999, 1} {
			s.Residence = append(s.Residence, results.QuantilePoint{Quantile: q, Micros: med * math.Exp(3*(q-0.5)) * (1 + 20*math.Pow(q, 40))})
		}
		pts := make([]stats.QuantilePoint, len(s.Residence))
		for i, p := range s.Residence {
			pts[i] = stats.QuantilePoint(p)
		}
		s.ConfidenceTPS, err = stats.ConfidenceRates(st.F, r.Confidence, func(q float64) float64 { return stats.QuantileFromPoints(pts, q) / 1e6 })
		if err != nil {
			t.Fatal(err)
		}
		r.Scales = append(r.Scales, s)
	}
	var scales []int64
	var meds []float64
	for _, s := range r.Scales {
		scales = append(scales, s.Scale)
		meds = append(meds, s.MedianTPS)
	}
	dsi, err := stats.DSI(scales, meds)
	if err != nil {
		t.Fatal(err)
	}
	r.DSI, r.DSISettings = &dsi, "scales 1,10,100,1000; 2 nodes x 2 threads"
	ranges, err := stats.ScaleRanges(stats.RangeCurve{Scales: scales, Medians: meds, Clients: 4, Writes: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range ranges {
		r.Ranges = append(r.Ranges, results.ScaleRange(g))
	}
	return r
}

func TestDSBenchColumns(t *testing.T) {
	want := []string{
		"scale",
		"database size [GB]",
		"transaction rate median [tps]",
		"transaction rate average [tps]",
		"transaction rate standard deviation [tps]",
		"transaction rate minimum [tps]",
		"transaction rate maximum [tps]",
		"number of transactions done",
		"number of failed transaction trials",
		"total transaction residence time [s]",
		"effective duration measured [s]",
		"transaction rate multiplier f",
		"transaction rate for 50.0% confidence level [tps]",
		"transaction rate for 68.0% confidence level [tps]",
		"transaction rate for 87.0% confidence level [tps]",
		"transaction rate for 95.0% confidence level [tps]",
		"transaction rate for 99.0% confidence level [tps]",
		"transaction rate for 99.7% confidence level [tps]",
		"populate database duration [s]",
		"primary key duration [s]",
		"foreign key duration [s]",
		"cleanup duration [s]",
		"drop database duration [s]",
	}
	r := syntheticDSBench(t)
	recs, err := csv.NewReader(strings.NewReader(string(DSBenchCSV(r)))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(recs[0], want) {
		t.Fatalf("csv header\n got %q\nwant %q", recs[0], want)
	}
	if len(recs) != 1+len(r.Scales) {
		t.Fatalf("%d csv records", len(recs))
	}
}

// One row by hand: scale 10, 5 cycles of 60 s, nodes 1-2 x threads 1-2.
// Thread (c, n, j) commits 1200 x 60 + 100cn + 10j = 72000 + 100cn + 10j.
// A cycle's sum: 4 x 72000 + 100c(1+1+2+2) + 10(1+2+1+2) = 288060 + 600c,
// so T_c = (288060 + 600c) / 60 = 4801 + 10c: 4811, 4821, ..., 4851.
// Median = mean = 4831; sample stddev = 10 x sqrt(10/4) = 15.81; M = 5 x
// 288060 + 600 x 15 = 1449300; failed = 20 rows x 3 = 60; residence =
// 20 x 59.5 = 1190 s; effective = mean of the longest L = 59.92 s; f =
// 1190 / 300 = 3.967; size 150 MB = 0.15 GB; populate 5 s, PK 1 s, FK
// 0.5 s, cleanup 0.02 s, drop 0.01 s.
func TestDSBenchTextRow(t *testing.T) {
	r := syntheticDSBench(t)
	txt := string(DSBenchText(r))
	var header, row []string
	for _, l := range strings.Split(txt, "\n") {
		f := strings.Fields(l)
		if len(f) > 1 && f[0] == "#" && f[1] == "scale" && len(f) == 24 {
			header = f[1:]
		}
		if len(f) > 0 && f[0] == "10" {
			row = f
		}
	}
	if len(header) != 23 || header[0] != "scale" || header[2] != "median_tps" || header[17] != "conf99.7_tps" || header[22] != "drop_s" {
		t.Fatalf("header %q in\n%s", header, txt)
	}
	want := map[int]string{
		0: "10", 1: "0.1500", 2: "4831.0", 3: "4831.0", 4: "15.81", 5: "4811.0", 6: "4851.0",
		7: "1449300", 8: "60", 9: "1190.0", 10: "59.920", 11: "3.967",
		18: "5.000", 19: "1.000", 20: "0.5000", 21: "0.02000", 22: "0.01000",
	}
	if len(row) != 23 {
		t.Fatalf("row %q", row)
	}
	for i, w := range want {
		if row[i] != w {
			t.Errorf("column %d (%s) = %q, want %q", i+1, header[i], row[i], w)
		}
	}
	// columns 13-18 fall as the level rises (f / a growing quantile)
	for i := 13; i < 18; i++ {
		if !(parse(t, row[i]) < parse(t, row[i-1])) {
			t.Errorf("confidence rates not falling: %q", row[12:18])
		}
	}
	if !strings.Contains(txt, "# DSI ") || !strings.Contains(txt, "# range collision: scale 1..1") {
		t.Errorf("preamble or ranges missing:\n%s", txt)
	}
	// every non-comment line has 23 whitespace-separated fields (gnuplot)
	for _, l := range strings.Split(txt, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") && len(strings.Fields(l)) != 23 {
			t.Errorf("data line with %d fields: %q", len(strings.Fields(l)), l)
		}
	}
}

func parse(t *testing.T, s string) float64 {
	t.Helper()
	var v float64
	if _, err := fmt.Sscan(s, &v); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}
