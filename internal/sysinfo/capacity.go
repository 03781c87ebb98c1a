package sysinfo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// ErrMeminfo is a /proc/meminfo without a readable MemAvailable line.
var ErrMeminfo = errors.New("sysinfo: meminfo")

// Capacity is what this process may hold: the memory it can take without
// the machine swapping and the files it may open. A command compares its
// counts (threads, connections, users) with it before anything starts.
type Capacity struct {
	// MemoryBytes is the kernel's estimate of the memory available for
	// new work without swapping (MemAvailable, Linux 3.14+), lowered to
	// the process's address-space limit (ulimit -v) when that is lower;
	// 0 when neither is known.
	MemoryBytes int64
	// MemorySource names where MemoryBytes comes from, for the message
	// that quotes it.
	MemorySource string
	// OpenFiles is the process's limit of open files (RLIMIT_NOFILE's soft
	// limit, which the Go runtime raises to the hard one at start).
	OpenFiles int64
}

// ReadCapacity reads this process's capacity; what cannot be read is 0
// (an unlimited rlimit, RLIM_INFINITY, is above 1<<62 and counts as unknown).
func ReadCapacity() Capacity {
	var c Capacity
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		if kb, err := parseMemAvailable(b); err == nil {
			c.MemoryBytes, c.MemorySource = kb*1024, "the machine's available memory (MemAvailable)"
		}
	}
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &lim) == nil && lim.Cur < 1<<62 {
		if as := int64(lim.Cur); c.MemoryBytes == 0 || as < c.MemoryBytes {
			c.MemoryBytes, c.MemorySource = as, "this process's address-space limit (ulimit -v)"
		}
	}
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil && lim.Cur < 1<<62 {
		c.OpenFiles = int64(lim.Cur)
	}
	return c
}

// parseMemAvailable is the MemAvailable line of /proc/meminfo, in kB
// (fs/proc/meminfo.c prints it with show_val_kb).
func parseMemAvailable(b []byte) (int64, error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("MemAvailable:"))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0, fmt.Errorf("%w: MemAvailable line %q", ErrMeminfo, sc.Text())
		}
		kb, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil || kb < 0 {
			return 0, fmt.Errorf("%w: MemAvailable %q", ErrMeminfo, f[0])
		}
		return kb, nil
	}
	return 0, fmt.Errorf("%w: no MemAvailable line", ErrMeminfo)
}
