package report

import (
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

func TestStorageTable(t *testing.T) {
	r := &results.StorageResults{
		Header: results.Header{Error: "interrupted during the synchronous 8 KiB writes: context canceled"},
		Dir:    "/data", FileSystem: "ext4", Mount: "/", SizeBytes: 256 << 20, DurationS: 5,
		SeqWrite:    &results.Throughput{BlockBytes: 1 << 20, MBps: 812.4},
		SeqRead:     &results.Throughput{BlockBytes: 1 << 20, MBps: 95.25},
		RandomReads: []results.LatencyTest{{BlockBytes: 4096, PerSecond: 15285.4, Ops: 76427, MeanUS: 64.37, P50US: 46.8, P99US: 410, MaxUS: 6275}, {BlockBytes: 8192, Direct: true, PerSecond: 100, Ops: 500}},
		SyncWrites:  []results.LatencyTest{{BlockBytes: 4096, PerSecond: 958.2, Ops: 4791, P50US: 1042, P99US: 2210.5}},
		Notes:       []string{"a note"},
	}
	tab := StorageTable(r)
	want := [][]string{
		{"test", "block", "rate", "unit", "ops", "mean us", "p50 us", "p99 us", "max us"},
		{"sequential write + fdatasync", "1 MiB", "812", "MB/s", "-", "-", "-", "-", "-"},
		{"sequential read, cache dropped", "1 MiB", "95.2", "MB/s", "-", "-", "-", "-", "-"},
		{"random read, buffered", "4 KiB", "15285", "IOPS", "76427", "64.4", "46.8", "410", "6275"},
		{"random read, O_DIRECT", "8 KiB", "100", "IOPS", "500", "0.0", "0.0", "0.0", "0.0"},
		{"sync write (commit)", "4 KiB", "958", "writes/s", "4791", "0.0", "1042", "2210", "0.0"},
	}
	if len(tab.Rows) != len(want) {
		t.Fatalf("%d rows, want %d: %q", len(tab.Rows), len(want), tab.Rows)
	}
	for i := range want {
		if strings.Join(tab.Rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d\n got %q\nwant %q", i, tab.Rows[i], want[i])
		}
	}
	txt := string(StorageText(r))
	for _, s := range []string{"Storage of /data (ext4 at /), test file 256 MiB", "a note", "INCOMPLETE: interrupted"} {
		if !strings.Contains(txt, s) {
			t.Errorf("text lacks %q:\n%s", s, txt)
		}
	}
	if csv := string(StorageCSV(r)); strings.Count(csv, "\n") != len(want) || strings.Contains(csv, "a note") {
		t.Errorf("csv:\n%s", csv)
	}
}
