package results_test

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

func ptr(v float64) *float64 { return &v }

// Each experiment's headline on hand-made results whose figure is known.
func TestHeadlines(t *testing.T) {
	q := func(n int, status string, median float64) results.QueryResult {
		return results.QueryResult{Query: n, Status: status, ElapsedMS: stats.Summary{Median: median}}
	}
	ab := func(verdicts ...string) []results.ABQuery {
		var out []results.ABQuery
		for _, v := range verdicts {
			out = append(out, results.ABQuery{Runs: []results.ABCacheRun{{Comparison: &stats.ABComparison{Verdict: v}}}})
		}
		return out
	}
	cases := []struct {
		name  string
		res   results.Results
		label string
		value *float64
		text  string
	}{
		// (1 x 4 x 16)^(1/3) = 4; the mismatch and the unmeasured query do not count.
		{"wisconsin", &results.WisconsinResults{Queries: []results.QueryResult{q(1, results.StatusOK, 1), q(2, results.StatusOK, 4), q(3, results.StatusOK, 16),
			q(4, results.StatusMismatch, 1000), q(5, results.StatusNotApplicable, 0)}}, "geomean of 3 query medians", ptr(4), "4 ms"},
		{"dsbench with a DSI", &results.DSBenchResults{DSI: ptr(0.8125), Scales: []results.ScaleResult{{Scale: 1, MedianTPS: 100}}}, "DSI", ptr(0.8125), "0.8125"},
		{"dsbench of one scale", &results.DSBenchResults{Scales: []results.ScaleResult{{Scale: 10, MedianTPS: 512.25}}}, "median tps at scale 10 (no DSI: one scale)", ptr(512.25), "512.2 tps"},
		{"multiuser", &results.MultiuserResults{Points: []results.MultiuserPoint{{Users: 0}, {Users: 1, Thruput: ptr(1)}, {Users: 4, Thruput: ptr(2.5)}, {Users: 8, Thruput: ptr(2.25)}}},
			"peak thruput (4 users)", ptr(2.5), "2.50"},
		// 0.0002 ms per tuple is 200 ns per tuple.
		{"sizesweep", &results.SizeSweepResults{Analysis: &results.SizeSweepAnalysis{NoIndexFit: &stats.LineFit{Slope: 0.0002}}}, "scan slope", ptr(200), "200 ns/tuple"},
		{"abtest", &results.ABTestResults{Queries: ab(stats.VerdictBFaster, stats.VerdictNoDiff, stats.VerdictBFaster, stats.VerdictAFaster)},
			"verdicts", nil, "B faster 2, A faster 1, no significant difference 1"},
		{"speedup", &results.SpeedupResults{Speedup: &results.SpeedupPart{Applicable: true, Curves: []results.SpeedupCurve{
			{Query: 1, Points: []results.SpeedupPoint{{X: 1, Speedup: 1}, {X: 2, Speedup: 1.5}}},
			{Query: 9, Points: []results.SpeedupPoint{{X: 1, Speedup: 1}, {X: 2, Speedup: 1.875}}}}}}, "best speedup (Q9 at p=2)", ptr(1.875), "1.88x"},
		{"speedup not applicable", &results.SpeedupResults{Speedup: &results.SpeedupPart{Reason: "no knob"}}, "best speedup", nil, "not applicable"},
		// The largest cardinality the protocol kept, and the measure it used.
		{"qac", &results.QACResults{Measure: "fine", QaCs: []results.QaCResult{
			{Cardinality: 4000, Retained: true, Computed: results.Estimate{MedianMS: 20, N: 6}, Fine: results.Estimate{MedianMS: 17.5, N: 6}},
			{Cardinality: 1000, Retained: true, Computed: results.Estimate{MedianMS: 10, N: 6}, Fine: results.Estimate{MedianMS: 8, N: 6}}}},
			"median computed time at 4000 rows", ptr(17.5), "17.5 ms"},
		// A dropped Q@C is never the headline, even the largest with
		// QEs kept: the kept 2000 stands.
		{"qac, largest dropped", &results.QACResults{Measure: "tick", QaCs: []results.QaCResult{
			{Cardinality: 2000, Retained: true, Computed: results.Estimate{MedianMS: 9, N: 6}},
			{Cardinality: 4000, Kept: 4, DropReasons: []string{"too_few_qes"}, Computed: results.Estimate{MedianMS: 30, N: 4}}}},
			"median computed time at 2000 rows", ptr(9), "9 ms"},
		{"qac, none kept", &results.QACResults{Measure: "tick", QaCs: []results.QaCResult{
			{Cardinality: 1000, Kept: 3, Computed: results.Estimate{MedianMS: 10, N: 3}},
			{Cardinality: 4000, AllComputed: results.Estimate{MedianMS: 30, N: 4}, AllFine: results.Estimate{MedianMS: 25, N: 4}}}},
			"computed time", nil, "no Q@C kept by the protocol (2 dropped)"},
		{"storage", &results.StorageResults{SyncWrites: []results.LatencyTest{{BlockBytes: 4096, P50US: 1234.5}, {BlockBytes: 8192, P50US: 2000}}},
			"commit latency p50 (4 KiB write + fdatasync)", ptr(1234.5), "1234 µs"},
	}
	for _, c := range cases {
		h := results.HeadlineOf(&results.Stored{Results: c.res})
		if h.Label != c.label || h.Text != c.text || (h.Value == nil) != (c.value == nil) || (h.Value != nil && math.Abs(*h.Value-*c.value) > 1e-12) {
			t.Errorf("%s: got %q %v %q, want %q %v %q", c.name, h.Label, deref(h.Value), h.Text, c.label, deref(c.value), c.text)
		}
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestWriteCatalog(t *testing.T) {
	fin := time.Date(2025, 1, 2, 3, 5, 0, 0, time.UTC)
	entries := []results.CatalogEntry{
		{Path: "b-dsbench", Experiment: "dsbench", Engine: "postgres", EngineVersion: "16.2", Started: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Finished: &fin,
			HasResults: true, Complete: true, Headline: results.Headline{Label: "DSI", Value: ptr(0.5), Text: "0.5"}},
		{Path: "a-storage", Experiment: "storage", HasResults: true, Error: "sequential write: disk full"},
		{Path: "c/sqlite/run", Experiment: "wisconsin", Engine: "sqlite", Tags: []string{"nightly", "pg16"}},
	}
	var b bytes.Buffer
	if err := results.WriteCatalog(&b, entries); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"STARTED (UTC)        EXPERIMENT  ENGINE         STATUS      HEADLINE  TAGS          DIRECTORY",
		"2025-01-02 03:04:05  dsbench     postgres 16.2  complete    DSI: 0.5  -             b-dsbench",
		"-                    storage     -              failed      -         -             a-storage",
		"-                    wisconsin   sqlite         unfinished  -         nightly,pg16  c/sqlite/run",
		""}, "\n")
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	results.WriteCatalog(&b, nil)
	if b.String() != "no runs\n" {
		t.Errorf("empty catalog: %q", b.String())
	}
}
