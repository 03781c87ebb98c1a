package experiment

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
)

// StoragePlan is a validated storage run (docs/dsbench.md §6): nothing
// touched yet.
type StoragePlan struct {
	// Dir is the directory measured (the one that holds, or will hold, the
	// database); it exists, is writable and has room for Size bytes.
	Dir string
	// Size is the test file's size for the sequential tests; the random
	// reads and synchronous writes work inside the same file.
	Size int64
	// Duration is the length of each random-read and sync-write test.
	Duration time.Duration
	// Seed drives the random read offsets and the data written.
	Seed uint64
}

// Block sizes: 1 MiB for the sequential tests (what dd users compare
// against); 4 and 8 KiB, the page sizes of the engines dbgauge drives
// (SQLite and MariaDB's log 4 KiB, PostgreSQL 8 KiB).
const (
	seqBlock = 1 << 20
	kib      = 1 << 10
)

var smallBlocks = []int64{4 * kib, 8 * kib}

// StorageSetup is everything a storage run needs besides its plan: Setup
// (its DB is not used: storage measures a directory, not an engine).
type StorageSetup = Setup

// RunStorage writes the run directory and runs the plan. It returns the
// results gathered so far even when the run fails or is interrupted
// part-way; they are in the run directory too. The test file in plan.Dir is
// removed in every case.
func RunStorage(ctx context.Context, s StorageSetup, plan StoragePlan, pr *progress.Printer) (*results.StorageResults, error) {
	started := time.Now()
	run, err := results.Create(s.Dir)
	if err != nil {
		return nil, err
	}
	defer run.Close()
	man := &results.Manifest{
		Experiment: "storage", Command: s.Command, Config: s.Config, Dbgauge: s.Version, Go: goVersion(),
		Started: started.UTC(), Seed: plan.Seed, System: sysinfo.Describe(plan.Dir), Tags: results.NormalizeTags(s.Tags),
	}
	if err := run.WriteJSON("manifest.json", man); err != nil {
		return nil, err
	}
	s.Live.attach(run, "storage", "", false)
	res := &results.StorageResults{
		Header: results.Header{Experiment: "storage"}, Dir: plan.Dir, FileSystem: man.System.FileSystem, Mount: man.System.Mount,
		SizeBytes: plan.Size, DurationS: plan.Duration.Seconds(), Seed: plan.Seed,
	}
	if res.FileSystem == "tmpfs" || res.FileSystem == "ramfs" {
		res.Notes = append(res.Notes, res.Dir+" is on "+res.FileSystem+": memory, not a disk; every figure is memory speed")
	}
	pr.Line("dbgauge storage on %s (%s at %s), file of %d MiB, %s per random test, run directory %s",
		plan.Dir, res.FileSystem, res.Mount, plan.Size>>20, plan.Duration, run.Dir)
	runErr := Storage(ctx, plan, run, res, pr)
	runErr = runOutcome(ctx, run, runErr, &res.Complete, &res.Error)
	runErr = andErr(runErr, writeStorage(run, man, res))
	return res, runErr
}

// writeStorage writes results.json, the table and the finished manifest.
func writeStorage(run *results.Run, man *results.Manifest, res *results.StorageResults) error {
	werr := writeOutputs(run, res)
	now := time.Now().UTC()
	man.Finished = &now
	man.Notes = append(man.Notes, res.Notes...)
	return errors.Join(werr, run.WriteJSON("manifest.json", man))
}

// Storage runs the tests in order, into res, journaling each result as it
// is taken: sequential write, cache drop, sequential read, random reads,
// synchronous writes. Each latency test's distribution goes into the run
// directory as an HdrHistogram interval log (results.StorageHistogramFile).
// The test file lives in plan.Dir and is removed at the end, also when ctx
// is cancelled (Ctrl-C) or a test fails.
func Storage(ctx context.Context, plan StoragePlan, run *results.Run, res *results.StorageResults, pr *progress.Printer) error {
	j := run.Journal()
	f, err := os.CreateTemp(plan.Dir, ".dbgauge-storage-*.dat")
	if err != nil {
		return fmt.Errorf("create the test file in %s: %w", plan.Dir, err)
	}
	name := f.Name()
	f.Close()
	defer os.Remove(name)
	record := func(test string, v results.StorageMeasure) { j.Append(results.StorageEntry{Test: test, Result: v}) }
	fail := func(test string, err error) error {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted during the %s: %w", test, ctx.Err())
		}
		return fmt.Errorf("%s: %w", test, err)
	}

	pr.Line("sequential write: %d MiB in 1 MiB blocks, fdatasync at the end", plan.Size>>20)
	w, err := seqWrite(ctx, name, plan.Size, plan.Seed)
	if err != nil {
		return fail("sequential write", err)
	}
	res.SeqWrite = w
	record("sequential write", w)

	pr.Line("sequential read, page cache dropped first")
	r, note, err := seqRead(ctx, name)
	if err != nil {
		return fail("sequential read", err)
	}
	res.SeqRead = r
	if note != "" {
		res.Notes = append(res.Notes, note)
	}
	record("sequential read", r)

	for _, bs := range smallBlocks {
		pr.Line("random reads of %d KiB for %s", bs/kib, plan.Duration)
		var hs []*hdr.Histogram
		t, note, err := randomReads(withIntervalLog(ctx, &hs), name, plan.Size, bs, plan.Duration, plan.Seed)
		if err != nil {
			return fail(fmt.Sprintf("random %d KiB reads", bs/kib), err)
		}
		res.RandomReads = append(res.RandomReads, *t)
		if note != "" && !contains(res.Notes, note) {
			res.Notes = append(res.Notes, note)
		}
		record(fmt.Sprintf("random read %d KiB", bs/kib), t)
		writeLatencyLog(run, res, results.StorageRandomRead, bs, hs, t.Method)
	}
	for _, bs := range smallBlocks {
		pr.Line("synchronous %d KiB writes (write + fdatasync, the cost of a commit) for %s", bs/kib, plan.Duration)
		var hs []*hdr.Histogram
		t, err := syncWrites(withIntervalLog(ctx, &hs), name, plan.Size, bs, plan.Duration)
		if err != nil {
			return fail(fmt.Sprintf("synchronous %d KiB writes", bs/kib), err)
		}
		res.SyncWrites = append(res.SyncWrites, *t)
		record(fmt.Sprintf("sync write %d KiB", bs/kib), t)
		writeLatencyLog(run, res, results.StorageSyncWrite, bs, hs, t.Method)
	}
	return nil
}

// writeLatencyLog writes one latency test's interval histograms as its
// HdrHistogram log in the run directory, after the test's result is
// recorded: a log that cannot be written is a note, and the measurement
// and the tests after it are kept.
func writeLatencyLog(run *results.Run, res *results.StorageResults, test string, bs int64, hs []*hdr.Histogram, method string) {
	name := results.StorageHistogramFile(test, bs)
	comment := fmt.Sprintf("dbgauge storage %s, %d KiB blocks, %s: latency of each operation in nanoseconds, one interval per tenth of the test", test, bs/kib, method)
	if err := results.WriteHistogramLog(run.Path(name), hs, comment); err != nil {
		res.Notes = append(res.Notes, fmt.Sprintf("the latency log %s was not written: %v", name, err))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
