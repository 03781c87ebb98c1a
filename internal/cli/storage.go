package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

type storageFlags struct {
	dir, size, seed, out string
	duration             time.Duration
}

func init() { registerCommand("storage", newStorage) }

func newStorage(stdout, stderr io.Writer) *cobra.Command {
	var f storageFlags
	cmd := &cobra.Command{
		Use:   "storage --dir PATH",
		Short: "Measure the storage under a directory: sequential throughput, random reads, commit latency",
		Long: `Measure the directory that holds a database (specs/dsbench.md section 6):
sequential write of --size in 1 MiB blocks with fdatasync, sequential read
with the page cache dropped first, random 4 KiB and 8 KiB reads (O_DIRECT
where the file system allows it) and small synchronous writes, each followed
by fdatasync: what a commit costs. Seed 001 found that sequential figures do
not predict database behaviour; the last two rows do. The test file is
removed at the end, also on Ctrl-C.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			plan, err := f.plan()
			if err != nil {
				return err
			}
			out := f.out
			if out == "" {
				out = results.DefaultDir(defaultRunsDir, "storage", time.Now())
			}
			if err := results.CheckWritable(out); err != nil {
				return usagef("%v", err)
			}
			pr := progress.New(stderr)
			setup := experiment.StorageSetup{Dir: out, Command: redactArgs(os.Args), Config: effectiveFlags(cmd.Flags()), Version: Version()}
			res, err := experiment.RunStorage(cmd.Context(), setup, plan, pr)
			if res != nil {
				stdout.Write(report.StorageText(res))
				fmt.Fprintf(stdout, "run directory: %s\n", out)
				finishRun(stdout, stderr, out, "", false)
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.dir, "dir", "", "directory to measure (required): the one that holds, or will hold, the database")
	fl.StringVar(&f.size, "size", "256MiB", "test file size for the sequential tests (e.g. 256MiB, 4GiB); larger than the device's cache gives honest figures")
	fl.DurationVar(&f.duration, "duration", 5*time.Second, "length of each random-read and synchronous-write test")
	fl.StringVar(&f.seed, "seed", "1", "seed of the random read offsets")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-storage)")
	addConfigFlag(cmd)
	return cmd
}

// plan validates the flags: every refusal is one line naming the flag and
// the fix, and nothing is written (the writability probe is removed).
func (f *storageFlags) plan() (experiment.StoragePlan, error) {
	var p experiment.StoragePlan
	if f.dir == "" {
		return p, usagef("--dir is required: give the directory that holds (or will hold) the database")
	}
	if f.duration <= 0 {
		return p, usagef("--duration %s: must be positive (e.g. --duration 5s)", f.duration)
	}
	size, err := parseBytes("size", f.size)
	if err != nil {
		return p, err
	}
	if size < 1<<20 {
		return p, usagef("--size %s: at least 1MiB is needed (default 256MiB)", f.size)
	}
	seed, err := parseSeed(f.seed)
	if err != nil {
		return p, err
	}
	dir, err := filepath.Abs(f.dir)
	if err != nil {
		return p, usagef("--dir %s: %v", f.dir, err)
	}
	if err := checkStorageDir(dir, size, f.size); err != nil {
		return p, err
	}
	return experiment.StoragePlan{Dir: dir, Size: size, Duration: f.duration, Seed: seed}, nil
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

// parseBytes reads a size: a whole number of bytes, or with a unit, binary
// (KiB, MiB, GiB, TiB, or K, M, G, T as dd reads them) or decimal (kB, MB,
// GB, TB).
func parseBytes(flag, s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '_' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.TrimSpace(t[i:])
	}
	mult := map[string]int64{
		"": 1, "B": 1,
		"K": 1 << 10, "KiB": 1 << 10, "M": 1 << 20, "MiB": 1 << 20, "G": 1 << 30, "GiB": 1 << 30, "T": 1 << 40, "TiB": 1 << 40,
		"kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
	}[unit]
	v, err := strconv.ParseInt(strings.ReplaceAll(num, "_", ""), 10, 64)
	if err != nil || mult == 0 || v <= 0 || v > math.MaxInt64/mult {
		return 0, usagef("--%s %q: not a size (examples: 256MiB, 4GiB, 1000000)", flag, s)
	}
	return v * mult, nil
}
