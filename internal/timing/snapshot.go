package timing

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"syscall"
	"time"
)

// ProcSample is the raw counters of one process (TID 0) or one thread of
// it at one instant. PID and StartTime together name a process: a PID
// seen again with another StartTime is a new process (PID reuse).
type ProcSample struct {
	PID, TID   int
	PPID       int
	State      byte   // R, S, D, Z, ...
	Comm       string // as in stat, unescaped, at most 15 bytes for user tasks
	StartTime  uint64 // field 22: ticks after boot
	NumThreads int    // field 20

	UTime, STime uint64 // ticks; the whole process for TID 0
	// Fields 16 and 17, ticks: the children that exited and that it waited
	// for (with their own waited-for children), so that the sum of
	// UTime+STime+CUTime+CSTime over the live processes of a tree counts
	// every process that ever ran in it once, as long as the exited ones
	// were reaped inside the tree.
	CUTime, CSTime        uint64
	MinFlt, MajFlt        uint64
	BlkioTicks            uint64 // field 42: for TID 0 the main thread's only
	GuestTime, CGuestTime uint64 // fields 43, 44

	VolCtx, NonvolCtx uint64 // /proc/.../status: for TID 0 the main thread's only

	// /proc/.../io needs ptrace access: HasIO is false when it could not
	// be read (missing, not an error).
	SysCR, SysCW, ReadBytes, WriteBytes uint64
	HasIO                               bool

	// /proc/.../schedstat, ns: for TID 0 the main thread's only.
	RunNS, WaitNS uint64
	HasSchedstat  bool

	// Taskstats of the live task (filled by Snapshot.AddTaskstats, for the
	// few processes the protocol asks the kernel about): CPU µs and
	// block-I/O delay ns, summed over the thread group for TID 0.
	CPUUS, BlkioNS uint64
	HasTaskstats   bool

	// Threads are the per-thread samples when the snapshot was asked for
	// them (SnapshotOptions.Threads); AllThreads says every live thread is
	// there, so per-task counters may be summed over them.
	Threads    map[int]ProcSample
	AllThreads bool
}

// CPUTicks is the aggregate cpu line of /proc/stat, in ticks. Guest and
// GuestNice are already included in User and Nice by the kernel.
type CPUTicks struct {
	User, Nice, System, Idle, IOWait, IRQ, SoftIRQ, Steal, Guest, GuestNice uint64
}

// DiskTotals sums /proc/diskstats over the whole physical disks.
type DiskTotals struct {
	ReadBytes, WriteBytes uint64 // sectors x 512
	ReadMS, WriteMS       uint64 // time spent reading, writing (summed over requests)
	Disks                 []string
}

// SystemSample is the machine-wide counters at one instant. The Has
// fields say whether an optional file could be read (a kernel without
// PSI, a container without /proc/diskstats): unavailable, not an error.
type SystemSample struct {
	CPU               CPUTicks
	Forks             uint64 // /proc/stat "processes": clones since boot, threads included
	Disk              DiskTotals
	HasDisk           bool
	PressureIOSomeUS  uint64 // /proc/pressure/io some total=
	PressureCPUSomeUS uint64 // /proc/pressure/cpu some total=
	HasPressureIO     bool
	HasPressureCPU    bool
}

// Snapshot is every process of the machine and the system counters.
type Snapshot struct {
	At     time.Time     // when reading began
	Took   time.Duration // how long reading took
	Procs  map[int]ProcSample
	System SystemSample
}

// SnapshotOptions says what to read besides every process.
type SnapshotOptions struct {
	// Threads names the processes whose threads are sampled too: pid ->
	// thread ids; a nil or empty list means every thread of the process.
	Threads map[int][]int
	// SystemFirst reads the system counters before the processes (the
	// second snapshot of a QE: seed 002 Fig. 5 takes the overall snapshot,
	// then the processes'); by default they are read after (the first).
	SystemFirst bool
}

// TakeSnapshot samples every process in /proc, the requested threads,
// and the system counters, with a Sampler shared by the whole program:
// the files of the live processes stay open between calls.
func TakeSnapshot(opts SnapshotOptions) (*Snapshot, error) {
	return defaultSampler.Snapshot(opts)
}

var defaultSampler = NewSampler()

// Sampler takes snapshots and keeps the four files of each live process
// (and of the threads asked for) open from one snapshot to the next: then
// a snapshot costs one pread per file instead of an open, a read and a
// close (two to three times faster on this project's virtual machine:
// BenchmarkTakeSnapshot against BenchmarkSnapshotOpeningFiles). A kept
// descriptor cannot read another process that got the same PID: its
// reads fail with ESRCH once its own process is gone (see pread), and the
// PID's files are then opened afresh. Descriptors are close-on-exec, so
// servers started by dbgauge do not inherit them; they are closed when
// their task was not sampled by the last snapshot, or by Close.
type Sampler struct {
	mu   sync.Mutex
	held map[taskKey]*heldFiles
	gen  uint64
	r    *procReader
}

// taskKey names a process (tid 0) or one of its threads.
type taskKey struct{ pid, tid int }

// heldFiles are the open per-task files of one task; -1 for a file
// that could not be opened (io without ptrace access, no schedstat).
type heldFiles struct {
	fd  [numTaskFiles]int
	gen uint64 // the last snapshot that read them
}

// NewSampler returns a Sampler with no files open yet.
func NewSampler() *Sampler {
	return &Sampler{held: map[taskKey]*heldFiles{}, r: newProcReader()}
}

// Snapshot samples every process in /proc, the requested threads, and
// the system counters. Processes that vanish while being read are left
// out (they will show as exited); malformed /proc text is an error.
func (sm *Sampler) Snapshot(opts SnapshotOptions) (*Snapshot, error) {
	sm.mu.Lock()
	defer sm.mu.Unlock()
	snap := &Snapshot{At: time.Now()}
	var err error
	if opts.SystemFirst {
		if snap.System, err = ReadSystem(); err != nil {
			return nil, err
		}
	}
	pids, err := numericNames("/proc")
	if err != nil {
		return nil, err
	}
	sm.gen++
	snap.Procs = make(map[int]ProcSample, len(pids))
	for _, pid := range pids {
		s, err := sm.sample(procDir(pid), pid, 0)
		if errors.Is(err, ErrNoProcess) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if tids, ok := opts.Threads[pid]; ok {
			if err := sm.readThreads(&s, tids); err != nil {
				return nil, err
			}
		}
		snap.Procs[pid] = s
	}
	for k, h := range sm.held {
		if h.gen != sm.gen {
			h.close()
			delete(sm.held, k)
		}
	}
	if !opts.SystemFirst {
		if snap.System, err = ReadSystem(); err != nil {
			return nil, err
		}
	}
	snap.Took = time.Since(snap.At)
	return snap, nil
}

// Close closes the files the Sampler keeps open; it may be used again.
func (sm *Sampler) Close() {
	sm.mu.Lock()
	defer sm.mu.Unlock()
	for k, h := range sm.held {
		h.close()
		delete(sm.held, k)
	}
}

// sample reads one task (a process, or a thread when tid is not 0) from
// dir through its kept files, opening them if need be.
func (sm *Sampler) sample(dir string, pid, tid int) (ProcSample, error) {
	key := taskKey{pid, tid}
	if h := sm.held[key]; h != nil {
		s, err := sm.r.sampleTask(dir, pid, tid, h.getter(sm.r, dir))
		if err == nil {
			h.gen = sm.gen
			return s, nil
		}
		h.close()
		delete(sm.held, key)
		if !errors.Is(err, ErrNoProcess) {
			return s, err
		}
		// Gone, or its PID names another process now: open afresh.
	}
	h, err := openHeld(dir)
	if err == errTooManyFiles {
		return sm.r.readTask(dir, pid, tid)
	}
	if err != nil {
		return ProcSample{}, err
	}
	s, err := sm.r.sampleTask(dir, pid, tid, h.getter(sm.r, dir))
	if err != nil {
		h.close()
		return s, err
	}
	h.gen = sm.gen
	sm.held[key] = h
	return s, nil
}

var (
	errTooManyFiles = errors.New("too many open files")
	errNotOpen      = errors.New("not open")
)

// openHeld opens a process's four files. stat and status are required
// (ErrNoProcess when they are missing); io and schedstat are kept as -1
// when they cannot be opened. When the descriptor limit is reached it
// returns errTooManyFiles, and the process is read by path instead.
func openHeld(dir string) (*heldFiles, error) {
	h := &heldFiles{}
	for k := range h.fd {
		h.fd[k] = -1
	}
	for k, name := range taskFileNames {
		fd, err := syscall.Open(dir+name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		switch {
		case err == nil:
			h.fd[k] = fd
			continue
		case err == syscall.EMFILE || err == syscall.ENFILE:
			h.close()
			return nil, errTooManyFiles
		case k == fileStat || k == fileStatus:
			h.close()
			return nil, procErr(dir+name, err)
		}
	}
	return h, nil
}

// getter reads the kept files for sampleTask.
func (h *heldFiles) getter(r *procReader, dir string) func(int) ([]byte, error) {
	return func(k int) ([]byte, error) {
		if h.fd[k] < 0 {
			return nil, errNotOpen
		}
		b, err := r.pread(h.fd[k])
		if err != nil {
			return nil, procErr(dir+taskFileNames[k], err)
		}
		return b, nil
	}
}

func (h *heldFiles) close() {
	for k, fd := range h.fd {
		if fd >= 0 {
			syscall.Close(fd)
			h.fd[k] = -1
		}
	}
}

// readThreads adds the samples of the threads tids (all when empty) of
// the process s. A thread that is gone is left out.
func (sm *Sampler) readThreads(s *ProcSample, tids []int) error {
	if len(tids) == 0 {
		all, err := ThreadIDs(s.PID)
		if errors.Is(err, ErrNoProcess) {
			return nil
		}
		if err != nil {
			return err
		}
		tids = all
		s.AllThreads = true
	}
	s.Threads = make(map[int]ProcSample, len(tids))
	for _, tid := range tids {
		t, err := sm.sample(taskDir(s.PID, tid), s.PID, tid)
		if errors.Is(err, ErrNoProcess) {
			continue
		}
		if err != nil {
			return err
		}
		s.Threads[tid] = t
	}
	return nil
}

// ReadSystem reads /proc/stat (required), /proc/diskstats and the
// pressure files (optional).
func ReadSystem() (SystemSample, error) {
	var sys SystemSample
	r := newProcReader()
	b, err := r.read("/proc/stat")
	if err != nil {
		return sys, err
	}
	if sys.CPU, sys.Forks, err = parseProcStatCPU(b); err != nil {
		return sys, err
	}
	if b, err = r.read("/proc/diskstats"); err == nil {
		if sys.Disk, err = parseDiskTotals(b); err != nil {
			return sys, err
		}
		sys.HasDisk = true
	} else if !missing(err) {
		return sys, err
	}
	for _, p := range []struct {
		file string
		v    *uint64
		has  *bool
	}{
		{"/proc/pressure/io", &sys.PressureIOSomeUS, &sys.HasPressureIO},
		{"/proc/pressure/cpu", &sys.PressureCPUSomeUS, &sys.HasPressureCPU},
	} {
		b, err := r.read(p.file)
		if missing(err) {
			continue
		}
		if err != nil {
			return sys, err
		}
		if *p.v, err = parsePressureSome(b); err != nil {
			return sys, fmt.Errorf("%s: %w", p.file, err)
		}
		*p.has = true
	}
	return sys, nil
}

// missing says an optional file is not there (ENOENT comes back as
// ErrNoProcess from procReader) or may not be read (PSI disabled at boot
// gives EOPNOTSUPP on read).
func missing(err error) bool {
	return err != nil && (errors.Is(err, ErrNoProcess) || errors.Is(err, fs.ErrNotExist) ||
		errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EOPNOTSUPP))
}

// AddTaskstats records taskstats values read for a live process (tid 0)
// or one of its sampled threads, so that Diff can give the fine-grained
// CPU and block-I/O delay. It reports whether the sample was there.
func (s *Snapshot) AddTaskstats(pid, tid int, cpuUS, blkioNS uint64) bool {
	p, ok := s.Procs[pid]
	if !ok {
		return false
	}
	if tid == 0 {
		p.CPUUS, p.BlkioNS, p.HasTaskstats = cpuUS, blkioNS, true
		s.Procs[pid] = p
		return true
	}
	t, ok := p.Threads[tid]
	if !ok {
		return false
	}
	t.CPUUS, t.BlkioNS, t.HasTaskstats = cpuUS, blkioNS, true
	p.Threads[tid] = t
	return true
}

// Descendants lists, sorted, the processes of snap whose chain of parents
// (PPID) reaches root: its children, their children, and so on; root
// itself is not in the list.
func Descendants(snap *Snapshot, root int) []int {
	children := make(map[int][]int)
	for pid, s := range snap.Procs {
		if pid != s.PPID { // pid 0's parent is 0 on some kernels
			children[s.PPID] = append(children[s.PPID], pid)
		}
	}
	var out []int
	seen := map[int]bool{root: true}
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TreeTicks is the CPU time, in ticks, of root and of every process of
// snap whose chain of parents reaches it, each with its reaped children's
// (UTime+STime+CUTime+CSTime); ok is false when root is not in snap.
func TreeTicks(snap *Snapshot, root int) (ticks uint64, ok bool) {
	p, ok := snap.Procs[root]
	if !ok {
		return 0, false
	}
	ticks = p.UTime + p.STime + p.CUTime + p.CSTime
	for _, pid := range Descendants(snap, root) {
		c := snap.Procs[pid]
		ticks += c.UTime + c.STime + c.CUTime + c.CSTime
	}
	return ticks, true
}
