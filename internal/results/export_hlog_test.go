package results_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbgauge/dbgauge/internal/results"
)

// intervalLine is an interval of HdrHistogram's log format 1.3:
// [Tag=T,]start,length,max,payload (seconds, seconds, value/10^6, base64
// of the compressed V2 encoding, which begins "HISTF").
var intervalLine = regexp.MustCompile(`^(Tag=[^,\s]+,)?\d+\.\d{6},\d+\.\d{6},\d+\.\d{6},HISTF[A-Za-z0-9+/=]+$`)

// Histograms written as a log come back with the same counts, times and
// tags, and the file has the lines HdrHistogram's tools look for.
func TestHistogramLogRoundTrip(t *testing.T) {
	base := int64(1_700_000_000_123) // ms: the log's base is the whole second before
	var hs []*hdr.Histogram
	for i, values := range [][]int64{{1000, 2000, 2_500_000}, {5, 5, 5, 7}, {999_999_999}} {
		h := hdr.New(1, int64(10*time.Minute), 3)
		for _, v := range values {
			h.RecordValue(v)
		}
		h.SetStartTimeMs(base + int64(i)*250)
		h.SetEndTimeMs(base + int64(i)*250 + 240)
		if i == 1 {
			h.SetTag("second")
		}
		hs = append(hs, h)
	}
	path := filepath.Join(t.TempDir(), "x.hlog")
	if err := results.WriteHistogramLog(path, hs, "test values, nanoseconds"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	head := []string{
		"#test values, nanoseconds",
		"#[Histogram log format version 1.3]",
		"#[StartTime: 1700000000 (seconds since epoch), 2023-11-14T22:13:20Z]",
		"#[BaseTime: 1700000000 (seconds since epoch)]",
		`"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"`,
	}
	if len(lines) != len(head)+3 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(head)+3, b)
	}
	for i, want := range head {
		if lines[i] != want {
			t.Errorf("line %d: %q, want %q", i+1, lines[i], want)
		}
	}
	for _, l := range lines[len(head):] {
		if !intervalLine.MatchString(l) {
			t.Errorf("not an interval line: %q", l)
		}
	}
	// Relative to the base second: the first interval starts 0.123 s in,
	// lasts 0.240 s, and its largest value 2.5 ms shows as 2.5 (ms).
	if !strings.HasPrefix(lines[5], "0.123000,0.240000,2.50") {
		t.Errorf("first interval %q", lines[5])
	}
	if !strings.HasPrefix(lines[6], "Tag=second,0.373000,0.240000,") {
		t.Errorf("tagged interval %q", lines[6])
	}
	back, err := results.ReadHistogramLog(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(hs) {
		t.Fatalf("%d intervals read, want %d", len(back), len(hs))
	}
	for i := range hs {
		if !back[i].Equals(hs[i]) || back[i].StartTimeMs() != hs[i].StartTimeMs() || back[i].EndTimeMs() != hs[i].EndTimeMs() || back[i].Tag() != hs[i].Tag() {
			t.Errorf("interval %d: %d values %d-%d ms tag %q, want %d values %d-%d ms tag %q", i+1,
				back[i].TotalCount(), back[i].StartTimeMs(), back[i].EndTimeMs(), back[i].Tag(), hs[i].TotalCount(), hs[i].StartTimeMs(), hs[i].EndTimeMs(), hs[i].Tag())
		}
	}

	if err := results.WriteHistogramLog(path, nil, "none"); err == nil {
		t.Error("a log without intervals was written")
	}
	bad := hdr.New(1, 1000, 3)
	bad.SetStartTimeMs(2000)
	bad.SetEndTimeMs(1000)
	if err := results.WriteHistogramLog(path, []*hdr.Histogram{bad}, "x"); err == nil {
		t.Error("an interval ending before it starts was written")
	}
	os.WriteFile(path, []byte("#nothing\n"), 0o644)
	if _, err := results.ReadHistogramLog(path); err == nil {
		t.Error("a log without intervals was read")
	}
}

// The storage run wrote one interval log per latency test: together the
// intervals hold every operation, and merged they give the summary's
// percentiles exactly (the same values in the same geometry).
func TestStorageLatencyLogs(t *testing.T) {
	dir := filepath.Join(runsFixture(t), fixtureRuns["storage"])
	s, err := results.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	st := s.Results.(*results.StorageResults)
	for _, set := range []struct {
		test  string
		tests []results.LatencyTest
	}{{results.StorageRandomRead, st.RandomReads}, {results.StorageSyncWrite, st.SyncWrites}} {
		if len(set.tests) != 2 {
			t.Fatalf("%s: %d tests", set.test, len(set.tests))
		}
		for _, lt := range set.tests {
			name := results.StorageHistogramFile(set.test, lt.BlockBytes)
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !strings.HasPrefix(string(b), "#dbgauge storage "+set.test) || !strings.Contains(string(b), "nanoseconds") {
				t.Errorf("%s: comment line does not say what and in which unit:\n%.200s", name, b)
			}
			hs, err := results.ReadHistogramLog(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if len(hs) < 1 || len(hs) > 11 {
				t.Errorf("%s: %d intervals, want 1 to 11 (a tenth of the test each)", name, len(hs))
			}
			merged := hdr.New(1, int64(10*time.Minute), 3)
			for i, h := range hs {
				merged.Merge(h)
				if h.TotalCount() == 0 || h.EndTimeMs() < h.StartTimeMs() || i > 0 && h.StartTimeMs() < hs[i-1].EndTimeMs() {
					t.Errorf("%s interval %d: %d values, %d-%d ms", name, i+1, h.TotalCount(), h.StartTimeMs(), h.EndTimeMs())
				}
			}
			us := func(ns int64) float64 { return float64(ns) / 1e3 }
			if merged.TotalCount() != lt.Ops || us(merged.ValueAtQuantile(50)) != lt.P50US || us(merged.ValueAtQuantile(99)) != lt.P99US || us(merged.Max()) != lt.MaxUS {
				t.Errorf("%s: %d values p50 %v p99 %v max %v; summary %d ops p50 %v p99 %v max %v", name, merged.TotalCount(),
					us(merged.ValueAtQuantile(50)), us(merged.ValueAtQuantile(99)), us(merged.Max()), lt.Ops, lt.P50US, lt.P99US, lt.MaxUS)
			}
		}
	}
}
