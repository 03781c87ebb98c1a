package timing

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/sysinfo"
)

// DescribeEnvironment fills what the checks and the paragraph need to
// know about the machine from sysinfo's description and /proc; the caller
// adds the run's own facts (cache mode, what could not be flushed).
func DescribeEnvironment(sys sysinfo.System) Environment {
	env := Environment{
		OnlineCores: OnlineCPUs(), Virtualization: sys.Virtual, Kernel: "Linux " + sys.Kernel, OS: sys.OS,
		Hardware:        fmt.Sprintf("%s, %d cores, %.1f GiB of memory", sys.CPUModel, sys.CPUs, float64(sys.MemoryBytes)/(1<<30)),
		DelayAccounting: DelayAccountingState(),
	}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "Cpus_allowed_list:"); ok {
				env.Affinity = strings.TrimSpace(v)
			}
		}
	}
	return env
}

// Foreign lists the processes of other database servers running now (an
// experiment-wide check: they compete with the measured engine), leaving
// out the measured engine's own processes.
func (s *Session) Foreign() ([]ProcessInfo, error) {
	snap, err := TakeSnapshot(SnapshotOptions{})
	if err != nil {
		return nil, err
	}
	// The trees hold a PostgreSQL backend's postmaster (Reattach).
	ours := []int{s.qp.PID}
	for _, root := range s.roles.Trees {
		ours = append(ours, root)
		ours = append(ours, Descendants(snap, root)...)
	}
	return ForeignDBMS(snap, ours), nil
}

// OnlineCPUs counts the CPUs in /sys/devices/system/cpu/online ("0-1,4"),
// the ones /proc/stat's cpu line sums; runtime.NumCPU would count only
// those dbgauge's own affinity allows.
func OnlineCPUs() int {
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return 1
	}
	n := 0
	for _, part := range strings.Split(strings.TrimSpace(string(b)), ",") {
		lo, hi, found := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		z := a
		var err2 error
		if found {
			z, err2 = strconv.Atoi(hi)
		}
		if err1 == nil && err2 == nil && z >= a {
			n += z - a + 1
		}
	}
	return max(n, 1)
}
