package htmlreport

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

// A tiny storage run: the summary and the latency bars say what
// results.json holds, and the run's notes and an incomplete run are
// warned about.
func TestStoragePage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	plan := experiment.StoragePlan{Dir: t.TempDir(), Size: 4 << 20, Duration: 100 * time.Millisecond, Seed: 1}
	if _, err := experiment.RunStorage(context.Background(), experiment.StorageSetup{Dir: dir, Version: "test"}, plan, progress.New(nil)); err != nil {
		t.Fatal(err)
	}
	var res results.StorageResults
	readResults(t, dir, &res)
	if res.SeqWrite == nil || res.SeqRead == nil || len(res.RandomReads) != 2 || len(res.SyncWrites) != 2 {
		t.Fatalf("storage results %+v", res)
	}
	d := docOf(t, dir)
	checkPage(t, d)
	want := map[string]string{
		"sequential write": num(res.SeqWrite.MBps) + " MB/s",
		"sequential read":  num(res.SeqRead.MBps) + " MB/s",
	}
	var latencies []float64
	for _, x := range res.RandomReads {
		want["random "+bytesLabel(x.BlockBytes)+" reads"] = num(x.PerSecond) + " IOPS"
		latencies = append(latencies, x.P50US, x.P99US)
	}
	for _, x := range res.SyncWrites {
		want["commit: "+bytesLabel(x.BlockBytes)+" write + fdatasync"] = num(x.P50US) + " / " + num(x.P99US) + " µs"
		latencies = append(latencies, x.P50US, x.P99US)
	}
	checkHeadlines(t, d, want)
	checkBars(t, d, latencies, "the p50 and p99 latencies")
	if n := warned(d, "did not complete"); n != 0 {
		t.Errorf("a complete run is said incomplete: %q", d.Warnings)
	}

	noted := res
	noted.Notes = []string{"O_DIRECT is not supported on this file system"}
	noted.Complete, noted.Error = false, "interrupted during the sync writes"
	noted.SyncWrites = nil
	d = docOf(t, withResults(t, dir, noted))
	checkPage(t, d)
	checkWarnedOnce(t, d, "O_DIRECT is not supported on this file system", "did not complete", "interrupted during the sync writes")
}
