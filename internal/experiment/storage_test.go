package experiment

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

// A tiny storage run: every figure present and positive, the run directory
// complete, and the test file gone afterwards.
func TestStorageRun(t *testing.T) {
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "run")
	plan := StoragePlan{Dir: dir, Size: 8 << 20, Duration: 200 * time.Millisecond, Seed: 3}
	res, err := RunStorage(context.Background(), StorageSetup{Dir: out, Version: "test"}, plan, progress.New(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || res.FileSystem == "" {
		t.Errorf("complete %v, file system %q", res.Complete, res.FileSystem)
	}
	for name, tp := range map[string]*results.Throughput{"write": res.SeqWrite, "read": res.SeqRead} {
		if tp == nil || tp.Bytes != plan.Size || tp.Seconds <= 0 || tp.MBps <= 0 || tp.Method == "" {
			t.Errorf("sequential %s: %+v", name, tp)
		}
	}
	if c := res.SeqRead.CachedBefore; c == nil || *c < 0 || *c > 1 {
		t.Errorf("cached fraction %v", c)
	}
	check := func(kind string, tests []results.LatencyTest) {
		if len(tests) != 2 || tests[0].BlockBytes != 4096 || tests[1].BlockBytes != 8192 {
			t.Fatalf("%s: %+v, want 4 KiB and 8 KiB", kind, tests)
		}
		for _, x := range tests {
			if x.Ops <= 0 || x.Seconds <= 0 || x.PerSecond <= 0 || x.MeanUS <= 0 || x.P50US <= 0 || x.P99US < x.P50US || x.MaxUS < x.P99US || x.Method == "" {
				t.Errorf("%s %d: %+v", kind, x.BlockBytes, x)
			}
		}
	}
	check("random reads", res.RandomReads)
	check("sync writes", res.SyncWrites)
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("test file left behind: %v", left)
	}
	var stored results.StorageResults
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil || json.Unmarshal(b, &stored) != nil || !stored.Complete || len(stored.SyncWrites) != 2 {
		t.Errorf("results.json: %v %s", err, b)
	}
	txt, _ := os.ReadFile(filepath.Join(out, "storage.txt"))
	for _, want := range []string{"sequential write + fdatasync", "sequential read", "random read", "sync write (commit)", "4 KiB", "8 KiB", "IOPS"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("storage.txt lacks %q:\n%s", want, txt)
		}
	}
	if csv, _ := os.ReadFile(filepath.Join(out, "storage.csv")); strings.Count(string(csv), "\n") != 7 {
		t.Errorf("storage.csv has %d lines, want a header and 6 rows:\n%s", strings.Count(string(csv), "\n"), csv)
	}
	var man results.Manifest
	b, _ = os.ReadFile(filepath.Join(out, "manifest.json"))
	if json.Unmarshal(b, &man) != nil || man.Experiment != "storage" || man.Finished == nil || man.System.Kernel == "" {
		t.Errorf("manifest.json: %s", b)
	}
	entries, _ := results.ReadJournal(filepath.Join(out, results.JournalFile))
	if len(entries) != 6 {
		t.Errorf("%d journal entries, want one per test (6)", len(entries))
	}
}

// Cancelled (Ctrl-C) before the run: nothing measured, the error says so,
// the test file is removed and what there is still lands in the run
// directory.
func TestStorageInterrupted(t *testing.T) {
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := RunStorage(ctx, StorageSetup{Dir: out}, StoragePlan{Dir: dir, Size: 8 << 20, Duration: time.Second, Seed: 1}, progress.New(nil))
	if err == nil || !strings.Contains(err.Error(), "interrupted") || res == nil || res.Complete || res.Error == "" {
		t.Fatalf("err %v, results %+v", err, res)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("test file left behind: %v", left)
	}
	if _, err := os.Stat(filepath.Join(out, "results.json")); err != nil {
		t.Errorf("results.json not written: %v", err)
	}
}
