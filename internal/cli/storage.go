package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/sys/unix"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// storageFlags are storage's flags, typed: Set has validated each.
type storageFlags struct {
	dir, out string
	size     *flagtype.Value[int64]
	seed     *flagtype.Value[uint64]
	duration *flagtype.Value[time.Duration]
}

// newStorageFlags are the defaults.
func newStorageFlags() *storageFlags {
	return &storageFlags{
		size:     flagtype.Bytes("256MiB").Check(flagtype.AtLeastBytes(1<<20, "1MiB")),
		duration: flagtype.Duration(5 * time.Second),
		seed:     flagtype.Seed("1"),
	}
}

func (f *storageFlags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.dir, "dir", "", "directory to measure (required): the one that holds, or will hold, the database")
	fl.Var(f.size, "size", "test file size for the sequential tests (e.g. 256MiB, 4GiB); larger than the device's cache gives honest figures")
	fl.Var(f.duration, "duration", "length of each random-read and synchronous-write test")
	fl.Var(f.seed, "seed", "seed of the random read offsets")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-storage)")
}

func init() {
	experimentCmd[experiment.StoragePlan, *results.StorageResults]{
		name:  "storage",
		use:   "storage --dir PATH",
		short: "Measure the storage under a directory: sequential throughput, random reads, commit latency",
		long: `Measure the directory that holds a database (docs/experiments.md §5):
sequential write of --size in 1 MiB blocks with fdatasync, sequential read
with the page cache dropped first, random 4 KiB and 8 KiB reads (O_DIRECT
where the file system allows it) and small synchronous writes, each followed
by fdatasync: what a commit costs. Seed 001 found that sequential figures do
not predict database behaviour; the last two rows do. The test file is
removed at the end, also on Ctrl-C.`,
		flags: func() experimentFlags[experiment.StoragePlan] { return newStorageFlags() },
		run:   experiment.RunStorage,
		summary: func(r *results.StorageResults, dir string) []byte {
			return append(report.StorageText(r), runDirLine(dir, "")...)
		},
	}.register()
}

// plan makes the plan from the flags, each already validated by its own
// Set, and refuses what involves several flags or the outside world: one
// line naming the flag and the fix, nothing written (the
// writability probe of --dir is removed).
func (f *storageFlags) plan() (experiment.StoragePlan, error) {
	var p experiment.StoragePlan
	if f.dir == "" {
		return p, usagef("--dir is required: give the directory that holds (or will hold) the database")
	}
	dir, err := filepath.Abs(f.dir)
	if err != nil {
		return p, usagef("--dir %s: %v", f.dir, err)
	}
	if err := checkStorageDir(dir, f.size.V, f.size.String()); err != nil {
		return p, err
	}
	return experiment.StoragePlan{Dir: dir, Size: f.size.V, Duration: f.duration.V, Seed: f.seed.V}, nil
}

// checkStorageDir refuses a missing, non-directory or unwritable --dir and
// a --size larger than the free space of its file system.
func checkStorageDir(dir string, size int64, sizeText string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usagef("--dir %s does not exist: create it or give another directory", dir)
	case err != nil:
		return usagef("--dir %s: %v", dir, errors.Unwrap(err))
	case !st.IsDir():
		return usagef("--dir %s is not a directory: give the directory that holds the database", dir)
	}
	probe, err := os.CreateTemp(dir, ".dbgauge-probe-*")
	if err != nil {
		return usagef("--dir %s is not writable (%v): give a directory you can write", dir, errors.Unwrap(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	var sfs unix.Statfs_t
	if err := unix.Statfs(dir, &sfs); err != nil {
		return usagef("--dir %s: statfs: %v", dir, err)
	}
	free := uint64(sfs.Bavail) * uint64(sfs.Bsize)
	if uint64(size) > free {
		return usagef("--size %s does not fit: %s has %d MiB free; give a smaller --size", sizeText, dir, free>>20)
	}
	return nil
}

func (f *storageFlags) target() (db, out string) { return "", f.out }
