package sysinfo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrParse is wrapped by every /proc parse error, with the file and the bad
// token, so a caller can tell "malformed kernel text" from "cannot read".
var ErrParse = errors.New("malformed /proc text")

// CPUTimes is the aggregate "cpu" line of /proc/stat: time spent in each
// state by all CPUs together, in clock ticks (USER_HZ, 1/100 s on Linux).
type CPUTimes struct {
	User, Nice, System, Idle, IOWait, IRQ, SoftIRQ, Steal uint64
}

// Total is the sum of the states. Guest time is left out on purpose: the
// kernel already counts it inside user (and guest_nice inside nice).
func (c CPUTimes) Total() uint64 {
	return c.User + c.Nice + c.System + c.Idle + c.IOWait + c.IRQ + c.SoftIRQ + c.Steal
}

// ParseStat reads the aggregate cpu line of /proc/stat. Older kernels print
// fewer columns (steal since 2.6.11); missing ones stay zero.
func ParseStat(data []byte) (CPUTimes, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 4<<20) // the intr line is long
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || f[0] != "cpu" {
			continue
		}
		if len(f) < 5 {
			return CPUTimes{}, fmt.Errorf("%w: /proc/stat: cpu line has %d columns, want at least 4", ErrParse, len(f)-1)
		}
		var v [8]uint64
		for i := 0; i < len(v) && i+1 < len(f); i++ {
			n, err := strconv.ParseUint(f[i+1], 10, 64)
			if err != nil {
				return CPUTimes{}, fmt.Errorf("%w: /proc/stat: cpu column %d %q", ErrParse, i+1, f[i+1])
			}
			v[i] = n
		}
		return CPUTimes{User: v[0], Nice: v[1], System: v[2], Idle: v[3], IOWait: v[4], IRQ: v[5], SoftIRQ: v[6], Steal: v[7]}, nil
	}
	if err := sc.Err(); err != nil {
		return CPUTimes{}, fmt.Errorf("/proc/stat: %w", err)
	}
	return CPUTimes{}, fmt.Errorf("%w: /proc/stat: no aggregate cpu line", ErrParse)
}
