package sysinfo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// CPU time of the machine and of processes, for "who used the CPU while a
// load ran": the machine's busy share from /proc/stat, and a process tree's
// user + system time from /proc/PID/stat.

// UserHZ is the unit of the CPU times in /proc (USER_HZ): 100 per second on
// every Linux architecture (the kernel fixes it for user space whatever its
// internal HZ).
const UserHZ = 100

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

// ProcCPU is the CPU time of one process from /proc/PID/stat, in ticks
// (UserHZ). UTime and STime are the whole process (all its threads, live
// and exited); CUTime and CSTime are those of its children that exited and
// that it waited for (with their own waited-for children): so the sum of
// Ticks over the live processes of a tree counts every process that ever
// ran in it once, as long as the exited ones were reaped inside the tree.
type ProcCPU struct {
	PID, PPID                    int
	Comm                         string
	StartTime                    uint64 // field 22, ticks after boot: with PID it names the process
	UTime, STime, CUTime, CSTime uint64
}

// Ticks is the process's own CPU time plus its reaped children's.
func (p ProcCPU) Ticks() uint64 { return p.UTime + p.STime + p.CUTime + p.CSTime }

// ErrNoProc says a process is gone (or never was).
var ErrNoProc = errors.New("no such process")

// ParseProcCPU parses a /proc/PID/stat line. The comm stands between
// parentheses and may itself hold spaces and parentheses, so the fields
// are counted from the last ')'.
func ParseProcCPU(b []byte) (ProcCPU, error) {
	var p ProcCPU
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 1 || end < open {
		return p, fmt.Errorf("%w: /proc/PID/stat: no (comm)", ErrParse)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:open])))
	if err != nil {
		return p, fmt.Errorf("%w: /proc/PID/stat: pid %q", ErrParse, b[:open])
	}
	p.PID, p.Comm = pid, string(b[open+1:end])
	f := strings.Fields(string(b[end+1:])) // f[0] is field 3 (state)
	field := func(n int) (uint64, error) {
		if n-3 >= len(f) {
			return 0, fmt.Errorf("%w: /proc/%d/stat: %d fields, want at least %d", ErrParse, pid, len(f)+2, n)
		}
		v, err := strconv.ParseUint(f[n-3], 10, 64)
		if err != nil {
			// cutime and cstime are signed in the kernel's format; they
			// are never negative, but a negative value is not a count.
			return 0, fmt.Errorf("%w: /proc/%d/stat field %d %q", ErrParse, pid, n, f[n-3])
		}
		return v, nil
	}
	var v [6]uint64
	for i, n := range []int{4, 14, 15, 16, 17, 22} {
		if v[i], err = field(n); err != nil {
			return ProcCPU{}, err
		}
	}
	p.PPID = int(v[0])
	p.UTime, p.STime, p.CUTime, p.CSTime, p.StartTime = v[1], v[2], v[3], v[4], v[5]
	return p, nil
}

// ReadProcCPU reads /proc/PID/stat.
func ReadProcCPU(pid int) (ProcCPU, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
		return ProcCPU{}, fmt.Errorf("process %d: %w", pid, ErrNoProc)
	}
	if err != nil {
		return ProcCPU{}, err
	}
	return ParseProcCPU(b)
}

// ReadAllProcCPU reads /proc/PID/stat of every process; processes that end
// while it reads are left out.
func ReadAllProcCPU() (map[int]ProcCPU, error) {
	f, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return nil, err
	}
	out := make(map[int]ProcCPU, len(names))
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil || pid <= 0 {
			continue
		}
		p, err := ReadProcCPU(pid)
		if errors.Is(err, ErrNoProc) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[pid] = p
	}
	return out, nil
}

// TreeTicks sums Ticks over root and every process whose chain of parents
// reaches root; n is how many processes that is (0 when root is not in
// procs).
func TreeTicks(procs map[int]ProcCPU, root int) (ticks uint64, n int) {
	if _, ok := procs[root]; !ok {
		return 0, 0
	}
	children := make(map[int][]int)
	for pid, p := range procs {
		if pid != p.PPID {
			children[p.PPID] = append(children[p.PPID], pid)
		}
	}
	seen := map[int]bool{root: true}
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		ticks += procs[pid].Ticks()
		n++
		for _, c := range children[pid] {
			if !seen[c] {
				seen[c] = true
				queue = append(queue, c)
			}
		}
	}
	return ticks, n
}
