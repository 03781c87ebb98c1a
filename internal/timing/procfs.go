package timing

// Reading the per-task files of /proc: stat, status, io and schedstat of a
// process (/proc/PID/...) or of one of its threads (/proc/PID/task/TID/...).
//
// What the kernel sums over a process's threads and what it does not
// (fs/proc/array.c do_task_stat and proc_pid_status, fs/proc/base.c
// proc_pid_schedstat and do_io_accounting, read for Linux 6.x):
//   - /proc/PID/stat with whole=1 sums min_flt, maj_flt and guest time over
//     the live threads plus the dead ones (signal_struct), and utime/stime
//     come from thread_group_cputime_adjusted (live and dead threads); but
//     field 42 is delayacct_blkio_ticks(task) of the task the file belongs
//     to, that is the main thread only: neither the other live threads'
//     block-I/O delays nor the dead threads' are in it.
//   - /proc/PID/status voluntary_ctxt_switches and nonvoluntary_ctxt_switches
//     are task->nvcsw and task->nivcsw: the main thread only.
//   - /proc/PID/schedstat is task->se.sum_exec_runtime and
//     task->sched_info.run_delay: the main thread only.
//   - /proc/PID/io (whole=1) adds the signal_struct's totals of dead threads
//     and every live thread's: the whole process.
// So for a multi-threaded server the per-task measures must be read per
// thread (SumThreadBlkio, or SnapshotOptions.Threads and Diff's per-thread
// sums), as ttp.md section 2 says for field 42.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"

	"github.com/dbgauge/dbgauge/internal/sysinfo"
)

// ErrNoProcess says the process or thread is gone (or never was): its
// /proc directory vanished before or while it was read.
var ErrNoProcess = errors.New("no such process")

// ErrProcParse is wrapped by every error about malformed /proc text.
var ErrProcParse = errors.New("malformed /proc text")

// statFields are the fields of /proc/PID/stat dbgauge uses.
type statFields struct {
	comm                 []byte // points into the parsed buffer
	state                byte
	ppid                 int
	minflt, majflt       uint64
	utime, stime         uint64
	cutime, cstime       uint64 // the reaped children's
	numThreads           int
	starttime            uint64
	blkio, guest, cguest uint64
}

// statNeeded is the highest field number parseProcStat reads (cguest_time).
const statNeeded = 44

// parseProcStat parses one /proc/PID/stat or /proc/PID/task/TID/stat line.
// The comm is printed unescaped between parentheses and may itself hold
// spaces, parentheses and even newlines (prctl PR_SET_NAME), so the fields
// are counted from the last ')' of the text.
func parseProcStat(b []byte) (statFields, error) {
	var s statFields
	open := bytes.IndexByte(b, '(')
	end := bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return s, fmt.Errorf("%w: stat: no (comm) in %q", ErrProcParse, clip(b))
	}
	s.comm = b[open+1 : end]
	rest := b[end+1:]
	field := 3 // the state follows the comm
	for i := 0; i < len(rest) && field <= statNeeded; {
		for i < len(rest) && (rest[i] == ' ' || rest[i] == '\n') {
			i++
		}
		j := i
		for j < len(rest) && rest[j] != ' ' && rest[j] != '\n' {
			j++
		}
		if j == i {
			break
		}
		tok := rest[i:j]
		i = j
		switch field {
		case 3:
			s.state = tok[0]
		case 4, 10, 12, 14, 15, 16, 17, 20, 22, 42, 43, 44:
			v, ok := parseUint(tok)
			if !ok {
				return s, fmt.Errorf("%w: stat: field %d %q", ErrProcParse, field, tok)
			}
			switch field {
			case 4:
				s.ppid = int(v)
			case 10:
				s.minflt = v
			case 12:
				s.majflt = v
			case 14:
				s.utime = v
			case 15:
				s.stime = v
			case 16:
				s.cutime = v
			case 17:
				s.cstime = v
			case 20:
				s.numThreads = int(v)
			case 22:
				s.starttime = v
			case 42:
				s.blkio = v
			case 43:
				s.guest = v
			case 44:
				s.cguest = v
			}
		}
		field++
	}
	if field <= statNeeded {
		return s, fmt.Errorf("%w: stat: %d fields, want at least %d", ErrProcParse, field-1, statNeeded)
	}
	return s, nil
}

// parseUint parses a decimal without allocating (strconv.ParseUint would
// need a string made from the bytes).
func parseUint[T ~string | ~[]byte](b T) (uint64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if v > (1<<64-1-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	return v, true
}

// keyValue finds "key" at the start of a line of b and parses the decimal
// after it (after any blanks): the /proc/PID/status and /proc/PID/io format.
func keyValue(b []byte, key string) (uint64, bool) {
	for off := 0; off < len(b); {
		i := bytes.Index(b[off:], []byte(key))
		if i < 0 {
			return 0, false
		}
		i += off
		if i == 0 || b[i-1] == '\n' {
			j := i + len(key)
			for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
				j++
			}
			k := j
			for k < len(b) && b[k] >= '0' && b[k] <= '9' {
				k++
			}
			return parseUint(b[j:k])
		}
		off = i + len(key)
	}
	return 0, false
}

// parseProcStatus reads the context switch counts of /proc/PID/status.
func parseProcStatus(b []byte) (vol, nonvol uint64, err error) {
	vol, ok1 := keyValue(b, "voluntary_ctxt_switches:")
	nonvol, ok2 := keyValue(b, "nonvoluntary_ctxt_switches:")
	if !ok1 || !ok2 {
		return 0, 0, fmt.Errorf("%w: status: no context switch counts", ErrProcParse)
	}
	return vol, nonvol, nil
}

// procIO is /proc/PID/io.
type procIO struct {
	syscr, syscw, readBytes, writeBytes uint64
}

func parseProcIO(b []byte) (procIO, error) {
	var p procIO
	var ok [4]bool
	p.syscr, ok[0] = keyValue(b, "syscr:")
	p.syscw, ok[1] = keyValue(b, "syscw:")
	p.readBytes, ok[2] = keyValue(b, "read_bytes:")
	p.writeBytes, ok[3] = keyValue(b, "write_bytes:")
	for _, o := range ok {
		if !o {
			return p, fmt.Errorf("%w: io: %q", ErrProcParse, clip(b))
		}
	}
	return p, nil
}

// parseSchedstat reads /proc/PID/schedstat: time on the CPU and time
// waiting on a run queue, in nanoseconds, then the number of time slices.
func parseSchedstat(b []byte) (runNS, waitNS uint64, err error) {
	var v [2]uint64
	i := 0
	for n := range v {
		for i < len(b) && b[i] == ' ' {
			i++
		}
		j := i
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		var ok bool
		if v[n], ok = parseUint(b[i:j]); !ok {
			return 0, 0, fmt.Errorf("%w: schedstat: %q", ErrProcParse, clip(b))
		}
		i = j
	}
	return v[0], v[1], nil
}

func clip(b []byte) []byte {
	if len(b) > 200 {
		return b[:200]
	}
	return b
}

// procReader reads /proc files into one reused buffer, so that a snapshot
// of every process allocates little: the returned slice is only valid
// until the next read.
type procReader struct {
	buf []byte
}

func newProcReader() *procReader { return &procReader{buf: make([]byte, 8192)} }

// read returns the whole content of path. A missing process is reported
// as ErrNoProcess (ENOENT on open, ESRCH on read of an exiting task).
func (r *procReader) read(path string) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, procErr(path, err)
	}
	defer syscall.Close(fd)
	n := 0
	for {
		if n == len(r.buf) {
			r.buf = append(r.buf, make([]byte, len(r.buf))...)
		}
		m, err := syscall.Read(fd, r.buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, procErr(path, err)
		}
		if m == 0 {
			return r.buf[:n], nil
		}
		n += m
	}
}

// The per-task files, in the order they are read.
const (
	fileStat = iota
	fileStatus
	fileIO
	fileSchedstat
	numTaskFiles
)

var taskFileNames = [numTaskFiles]string{"stat", "status", "io", "schedstat"}

// readOnce reads a per-task file by path with one open, one pread and one
// close (see pread).
func (r *procReader) readOnce(path string) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, procErr(path, err)
	}
	defer syscall.Close(fd)
	b, err := r.pread(fd)
	if err != nil {
		return nil, procErr(path, err)
	}
	return b, nil
}

// pread reads a whole per-task file from an open descriptor. The per-task
// files are single_open seq_files (fs/proc/base.c ONE entries): a read at
// offset 0 makes the kernel print the text afresh, so a descriptor kept
// open gives current counters at every read (Sampler), and one read
// copies the whole text when the buffer holds it, so a short read is the
// end and the read that would return 0 is saved: system calls are most
// of the cost of a snapshot. Once the task is gone, reads fail with
// ESRCH, even if its PID was given to a new process: the descriptor
// holds the old process's struct pid.
func (r *procReader) pread(fd int) ([]byte, error) {
	n := 0
	for {
		m, err := syscall.Pread(fd, r.buf[n:], int64(n))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		n += m
		if m == 0 || n < len(r.buf) {
			return r.buf[:n], nil
		}
		r.buf = append(r.buf, make([]byte, len(r.buf))...)
	}
}

func procErr(path string, err error) error {
	if err == syscall.ENOENT || err == syscall.ESRCH {
		return fmt.Errorf("%s: %w", path, ErrNoProcess)
	}
	return &fs.PathError{Op: "read", Path: path, Err: err}
}

// readTask reads one task's files under dir ("/proc/PID/" or
// "/proc/PID/task/TID/").
func (r *procReader) readTask(dir string, pid, tid int) (ProcSample, error) {
	return r.sampleTask(dir, pid, tid, func(k int) ([]byte, error) {
		return r.readOnce(dir + taskFileNames[k])
	})
}

// sampleTask builds a task's sample from its files, which get returns by
// kind (fileStat...). stat is required (ErrNoProcess when the task is
// gone); status too, because a task that vanished between the two reads
// is better left out than half read; io and schedstat may be unreadable
// (io needs ptrace access, schedstat CONFIG_SCHED_INFO) and are then
// marked missing.
func (r *procReader) sampleTask(dir string, pid, tid int, get func(kind int) ([]byte, error)) (ProcSample, error) {
	var s ProcSample
	b, err := get(fileStat)
	if err != nil {
		return s, err
	}
	st, err := parseProcStat(b)
	if err != nil {
		return s, fmt.Errorf("%sstat: %w", dir, err)
	}
	s = ProcSample{
		PID: pid, TID: tid, PPID: st.ppid, State: st.state, Comm: string(st.comm),
		StartTime: st.starttime, NumThreads: st.numThreads,
		UTime: st.utime, STime: st.stime, CUTime: st.cutime, CSTime: st.cstime, MinFlt: st.minflt, MajFlt: st.majflt,
		BlkioTicks: st.blkio, GuestTime: st.guest, CGuestTime: st.cguest,
	}
	if b, err = get(fileStatus); err != nil {
		return s, err
	}
	if s.VolCtx, s.NonvolCtx, err = parseProcStatus(b); err != nil {
		return s, fmt.Errorf("%sstatus: %w", dir, err)
	}
	if b, err = get(fileIO); err == nil {
		p, err := parseProcIO(b)
		if err != nil {
			return s, fmt.Errorf("%sio: %w", dir, err)
		}
		s.SysCR, s.SysCW, s.ReadBytes, s.WriteBytes, s.HasIO = p.syscr, p.syscw, p.readBytes, p.writeBytes, true
	}
	if b, err = get(fileSchedstat); err == nil {
		if s.RunNS, s.WaitNS, err = parseSchedstat(b); err != nil {
			return s, fmt.Errorf("%sschedstat: %w", dir, err)
		}
		s.HasSchedstat = true
	}
	return s, nil
}

func procDir(pid int) string { return "/proc/" + strconv.Itoa(pid) + "/" }

func taskDir(pid, tid int) string {
	return "/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(tid) + "/"
}

// ReadProcess samples one process (its /proc/PID files).
func ReadProcess(pid int) (ProcSample, error) {
	return newProcReader().readTask(procDir(pid), pid, 0)
}

// ReadThread samples one thread of a process (its /proc/PID/task/TID
// files): the per-thread counters, including the thread's own field 42,
// context switches and schedstat.
func ReadThread(pid, tid int) (ProcSample, error) {
	return newProcReader().readTask(taskDir(pid, tid), pid, tid)
}

// ThreadIDs lists the live threads of a process (the main thread's id is
// the process id).
func ThreadIDs(pid int) ([]int, error) {
	ids, err := numericNames("/proc/" + strconv.Itoa(pid) + "/task")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("/proc/%d/task: %w", pid, ErrNoProcess)
	}
	return ids, err
}

// SumThreadBlkio sums field 42 (delayacct_blkio_ticks) over the live
// threads of a process, /proc/PID/task/*/stat, since the process's own
// stat shows only its main thread's (see the top of this file). Threads
// that already exited are not in the sum: their delays are lost to /proc
// (taskstats keeps them for the thread group). It also returns how many
// threads were read.
func SumThreadBlkio(pid int) (ticks uint64, threads int, err error) {
	tids, err := ThreadIDs(pid)
	if err != nil {
		return 0, 0, err
	}
	r := newProcReader()
	for _, tid := range tids {
		b, err := r.readOnce(taskDir(pid, tid) + "stat")
		if errors.Is(err, ErrNoProcess) {
			continue // the thread ended meanwhile
		}
		if err != nil {
			return 0, 0, err
		}
		st, err := parseProcStat(b)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/%d/task/%d/stat: %w", pid, tid, err)
		}
		ticks += st.blkio
		threads++
	}
	return ticks, threads, nil
}

// numericNames lists the entries of a /proc directory that are numbers
// (process or thread ids), unsorted.
func numericNames(dir string) ([]int, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	ids := make([]int, 0, len(names))
	for _, n := range names {
		if v, ok := parseUint(n); ok && v > 0 && v < 1<<31 {
			ids = append(ids, int(v))
		}
	}
	return ids, nil
}

// System-wide files: /proc/stat, /proc/diskstats, /proc/pressure/*.

// parseProcStatCPU reads the aggregate "cpu" line of /proc/stat (ten
// columns since Linux 2.6.33; older kernels' missing columns stay 0) and
// the "processes" line (forks since boot, threads included).
func parseProcStatCPU(b []byte) (cpu CPUTicks, forks uint64, err error) {
	found := false
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		switch {
		case bytes.HasPrefix(line, []byte("cpu ")):
			var v [10]uint64
			n := 0
			for _, tok := range bytes.Fields(line[4:]) {
				if n == len(v) {
					break
				}
				x, ok := parseUint(tok)
				if !ok {
					return cpu, 0, fmt.Errorf("%w: /proc/stat: cpu column %d %q", ErrProcParse, n+1, tok)
				}
				v[n] = x
				n++
			}
			if n < 4 {
				return cpu, 0, fmt.Errorf("%w: /proc/stat: cpu line has %d columns", ErrProcParse, n)
			}
			cpu = CPUTicks{User: v[0], Nice: v[1], System: v[2], Idle: v[3], IOWait: v[4], IRQ: v[5],
				SoftIRQ: v[6], Steal: v[7], Guest: v[8], GuestNice: v[9]}
			found = true
		case bytes.HasPrefix(line, []byte("processes ")):
			forks, _ = parseUint(bytes.TrimSpace(line[len("processes "):]))
		}
	}
	if !found {
		return cpu, 0, fmt.Errorf("%w: /proc/stat: no aggregate cpu line", ErrProcParse)
	}
	return cpu, forks, nil
}

// parseDiskTotals sums /proc/diskstats over the whole physical disks:
// partitions would count their disk's I/O twice, and loop, RAM, zram,
// device-mapper and RAID devices either are not disks or stack on disks
// that are already counted (sysinfo.WholeDisks decides, from the names in
// the same text). The kernel counts 512-byte sectors whatever the device.
func parseDiskTotals(b []byte) (DiskTotals, error) {
	all, err := sysinfo.ParseDiskstats(b)
	if err != nil {
		return DiskTotals{}, err
	}
	var t DiskTotals
	for _, d := range sysinfo.WholeDisks(all) {
		t.ReadBytes += d.ReadSectors * sysinfo.SectorBytes
		t.WriteBytes += d.WriteSectors * sysinfo.SectorBytes
		t.ReadMS += d.ReadMS
		t.WriteMS += d.WriteMS
		t.Disks = append(t.Disks, d.Name)
	}
	return t, nil
}

// parsePressureSome reads the "some" line's total= of a /proc/pressure
// file: microseconds during which at least one task was stalled.
func parsePressureSome(b []byte) (uint64, error) {
	orig := b
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if !bytes.HasPrefix(line, []byte("some ")) {
			continue
		}
		i := bytes.Index(line, []byte("total="))
		if i < 0 {
			break
		}
		if v, ok := parseUint(bytes.TrimSpace(line[i+len("total="):])); ok {
			return v, nil
		}
		break
	}
	return 0, fmt.Errorf("%w: pressure: no some total in %q", ErrProcParse, clip(orig))
}
