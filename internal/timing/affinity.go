package timing

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ParseCPUList reads a CPU list such as "1" or "0,2-3".
func ParseCPUList(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, ranged := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		z := a
		if err == nil && ranged {
			z, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || z < a {
			return nil, fmt.Errorf("CPU list %q: %q is not a CPU number or range", s, part)
		}
		for c := a; c <= z; c++ {
			out = append(out, c)
		}
	}
	return out, nil
}

// Pin binds every thread of the processes pids (and of their descendants
// present now) to cpus: seed 002 ran with one core enabled; pinning the
// engine and dbgauge to chosen CPUs keeps the query off the CPUs a
// disturbance uses. New threads and children inherit the binding.
func Pin(cpus []int, pids ...int) error {
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	snap, err := TakeSnapshot(SnapshotOptions{})
	if err != nil {
		return err
	}
	all := map[int]bool{}
	for _, p := range pids {
		all[p] = true
		for _, d := range Descendants(snap, p) {
			all[d] = true
		}
	}
	for pid := range all {
		tids, err := ThreadIDs(pid)
		if err != nil {
			continue // gone meanwhile
		}
		for _, tid := range tids {
			if err := unix.SchedSetaffinity(tid, &set); err != nil && err != unix.ESRCH {
				return fmt.Errorf("pin thread %d of %d to CPUs %v: %w", tid, pid, cpus, err)
			}
		}
	}
	return nil
}

// PinSelf binds dbgauge's own threads to cpus.
func PinSelf(cpus []int) error { return Pin(cpus, os.Getpid()) }
