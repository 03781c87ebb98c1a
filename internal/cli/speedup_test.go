package cli

import (
	"errors"
	"slices"
	"testing"

	"github.com/spf13/pflag"
)

// parseFlags parses args into a command's typed flags (bound by bind), as
// the command line would, and fails the test on a refused value.
func parseFlags(t *testing.T, bind func(*pflag.FlagSet), args ...string) {
	t.Helper()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	bind(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
}

func TestSpeedupPlan(t *testing.T) {
	f := newSpeedupFlags()
	parseFlags(t, f.bind, "--parallelism", "4,1,2", "--reps", "3", "--memory-sweep", "256kB,64MB,4MB")
	p, err := f.plan()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Parallelism, []int{1, 2, 4}) || p.Ref != 1 || p.SweepP != 1 {
		t.Errorf("parallelism %v ref %d sweep p %d, want [1 2 4], 1, 1", p.Parallelism, p.Ref, p.SweepP)
	}
	if !slices.Equal(p.MemorySweep, []int64{64e6, 4e6, 256e3}) || p.Memory != 256<<20 {
		t.Errorf("memory sweep %v (largest first), memory %d", p.MemorySweep, p.Memory)
	}
	parseFlags(t, f.bind, "--page-sizes", "32KiB,1024,4K")
	if p, err = f.plan(); err != nil || !slices.Equal(p.PageSizes, []int64{1024, 4096, 32768}) {
		t.Errorf("page sizes %v %v, want [1024 4096 32768]", p.PageSizes, err)
	}
	// Refused by the plan (what spans flags) or by the flag's own Set.
	for name, bad := range map[string][]string{
		"nothing to vary":   {"--memory", "1MiB", "--size", "1000"},
		"ref outside list":  {"--parallelism", "1,2", "--ref", "3"},
		"duplicate p":       {"--parallelism", "2,2"},
		"page not a power":  {"--page-sizes", "3000"},
		"sweep below 64KiB": {"--memory-sweep", "32KiB"},
		"size too small":    {"--parallelism", "1", "--size", "999"},
		"no reps":           {"--parallelism", "1", "--reps", "0"},
		"unknown dest":      {"--parallelism", "1", "--dest", "client"},
		"p above 256":       {"--parallelism", "1,300"},
		"ref without p":     {"--page-sizes", "4KiB", "--ref", "2"},
	} {
		code, _, stderr := run(append([]string{"speedup"}, append(bad, "--out", t.TempDir()+"/run")...)...)
		if code != ExitBadInput {
			t.Errorf("%s: exit %d (%s), want a usage error (exit 2)", name, code, stderr)
		}
	}
	f = newSpeedupFlags()
	parseFlags(t, f.bind, "--page-sizes", "4KiB", "--ref", "2")
	var ue *UsageError
	if _, err := f.plan(); !errors.As(err, &ue) {
		t.Errorf("--ref without --parallelism: %v, want a usage error", err)
	}
}
