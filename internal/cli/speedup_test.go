package cli

import (
	"errors"
	"slices"
	"testing"
)

func TestSpeedupPlan(t *testing.T) {
	f := speedupFlags{parallelism: "4,1,2", memory: "256MiB", size: "100000", reps: 3, seed: "1", sweep: "256kB,64MB,4MB", dest: "relation"}
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
	f.pageSizes = "32KiB,1024,4K"
	if p, err = f.plan(); err != nil || !slices.Equal(p.PageSizes, []int64{1024, 4096, 32768}) {
		t.Errorf("page sizes %v %v, want [1024 4096 32768]", p.PageSizes, err)
	}
	for name, bad := range map[string]speedupFlags{
		"nothing to vary":   {memory: "1MiB", size: "1000", reps: 1, seed: "1", dest: "relation"},
		"ref outside list":  {parallelism: "1,2", ref: 3, memory: "1MiB", size: "1000", reps: 1, seed: "1", dest: "relation"},
		"duplicate p":       {parallelism: "2,2", memory: "1MiB", size: "1000", reps: 1, seed: "1", dest: "relation"},
		"page not a power":  {pageSizes: "3000", memory: "1MiB", size: "1000", reps: 1, seed: "1", dest: "relation"},
		"sweep below 64KiB": {sweep: "32KiB", memory: "1MiB", size: "1000", reps: 1, seed: "1", dest: "relation"},
		"size too small":    {parallelism: "1", memory: "1MiB", size: "999", reps: 1, seed: "1", dest: "relation"},
		"no reps":           {parallelism: "1", memory: "1MiB", size: "1000", reps: 0, seed: "1", dest: "relation"},
		"unknown dest":      {parallelism: "1", memory: "1MiB", size: "1000", reps: 1, seed: "1", dest: "client"},
	} {
		_, err := bad.plan()
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%s: %v, want a usage error (exit 2)", name, err)
		}
	}
}
