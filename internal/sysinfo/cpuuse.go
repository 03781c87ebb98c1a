package sysinfo

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// CPU time of the machine, for "who used the CPU while a load ran": the
// machine's busy share from /proc/stat (a process tree's CPU time is
// internal/timing's TreeTicks).

// Busy is the time the CPUs were not idle: everything but idle and iowait
// (iowait is idle time with I/O outstanding). Steal counts as busy: the
// CPU was not there for this machine's work.
func (c CPUTimes) Busy() uint64 {
	return c.User + c.Nice + c.System + c.IRQ + c.SoftIRQ + c.Steal
}

// ParseStatCPUs reads the aggregate cpu line of /proc/stat and counts the
// per-CPU lines (cpu0, cpu1, ...): the CPUs online, over which the
// aggregate is summed.
func ParseStatCPUs(data []byte) (CPUTimes, int, error) {
	t, err := ParseStat(data)
	if err != nil {
		return t, 0, err
	}
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		f, _, _ := strings.Cut(sc.Text(), " ")
		if rest, ok := strings.CutPrefix(f, "cpu"); ok && rest != "" {
			if _, err := strconv.Atoi(rest); err == nil {
				n++
			}
		}
	}
	if n == 0 {
		return t, 0, fmt.Errorf("%w: /proc/stat: no per-CPU lines", ErrParse)
	}
	return t, n, nil
}

// ReadMachineCPU reads /proc/stat: the time of all CPUs together and the
// number of CPUs online.
func ReadMachineCPU() (CPUTimes, int, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return CPUTimes{}, 0, err
	}
	return ParseStatCPUs(b)
}
