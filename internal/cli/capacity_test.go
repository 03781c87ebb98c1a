package cli

import (
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
)

// TestClientLoadFits: the bounds of a load against capacities given by
// hand, each figure worked out from the rule (a session per open file,
// filesReserved kept; memory per unit as driver.WorkerBytes says).
func TestClientLoadFits(t *testing.T) {
	per := driver.WorkerBytes(1, false)
	files := sysinfo.Capacity{OpenFiles: 1024}
	mem := sysinfo.Capacity{MemoryBytes: 100 * per, MemorySource: "the machine's available memory (MemAvailable)"}
	for _, c := range []struct {
		name string
		load clientLoad
		c    sysinfo.Capacity
		want string // "" fits
	}{
		{"1008 threads in 1024 files", threadLoad(1008, 1, false), files, ""},
		{"1009 threads in 1024 files", threadLoad(1009, 1, false), files, "give --threads 1008 at most, or raise ulimit -n"},
		{"504 threads of 2 connections", threadLoad(504, 2, false), files, ""},
		{"505 threads of 2 connections", threadLoad(505, 2, false), files, "1010 client sessions"},
		{"connections alone too many", threadLoad(1, 1009, false), files, "give --connections 1008 at most"},
		{"0 threads is one worker", threadLoad(0, 1, false), files, ""},
		{"100 threads in memory for 100", threadLoad(100, 1, false), mem, ""},
		{"101 threads in memory for 100", threadLoad(101, 1, false), mem, "give --threads 100 at most"},
		{"open loop needs more", threadLoad(100, 1, true), mem, "give --threads"},
		{"per-type figures need more", threadLoad(100, 1, false).plus(driver.TypeBytes(3, 30)), mem, "give --threads"},
		{"unknown capacity checks nothing", threadLoad(1<<40, 1<<20, true), sysinfo.Capacity{}, ""},
		{"no overflow", threadLoad(1<<62, 1<<30, false), files, "more than 9223372036854775807 client sessions"},
		{"users", userLoad("1,2000", 2000, 10, false), files, "--users 1,2000 x --retrieves 10: 2000 client sessions"},
		{"users' scripts", userLoad("0,1", 1, 1<<40, false), mem, "give fewer --retrieves"},
		{"agents", nodeLoad(2000, 16, false), files, "--nodes 2000: 2000 agent connections"},
		{"cycles hold no files", cycleLoad(1<<20, 1, false), files, ""},
		{"cycles in memory for 100", cycleLoad(100, 4, false), sysinfo.Capacity{MemoryBytes: 100 * driver.CycleBytes(4, false)}, ""},
		{"cycles' histograms", cycleLoad(101, 4, false), sysinfo.Capacity{MemoryBytes: 100 * driver.CycleBytes(4, false)}, "--cycles 101: they need at least"},
		{"cycles' histograms fix", cycleLoad(101, 4, false), sysinfo.Capacity{MemoryBytes: 100 * driver.CycleBytes(4, false)}, "give --cycles 100 at most"},
		{"pairs' statements", pairLoad(101), sysinfo.Capacity{MemoryBytes: 100 * experiment.ABPairBytes()}, "give --reps 100 at most"},
		{"agents' histograms", nodeLoad(101, 16, false), sysinfo.Capacity{MemoryBytes: 100 * driver.NodeBytes(16, false)}, "give --nodes 100 at most"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.load.fits(c.c)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("got %v, want a refusal with %q", err, c.want)
			}
		})
	}
}
