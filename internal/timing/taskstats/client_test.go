package taskstats

import (
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// procFields reads /proc/self/task/TID/stat (fields after the comm) and
// .../status, for cross-checking counters that only grow.
func procThread(t *testing.T, tid int) (stat []string, status map[string]string) {
	t.Helper()
	dir := "/proc/self/task/" + strconv.Itoa(tid)
	b, err := os.ReadFile(dir + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	stat = strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // stat[0] is field 3
	b, err = os.ReadFile(dir + "/status")
	if err != nil {
		t.Fatal(err)
	}
	status = map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			status[k] = strings.TrimSpace(v)
		}
	}
	return stat, status
}

func atou(t *testing.T, s string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPIDOwnProcess(t *testing.T) {
	c := openClient(t)
	pid := os.Getpid()
	s, err := c.PID(pid)
	if err != nil {
		t.Fatal(err)
	}
	// Read /proc after taskstats: its counters can only have grown since.
	stat, status := procThread(t, pid)
	comm, err := os.ReadFile("/proc/self/comm")
	if err != nil {
		t.Fatal(err)
	}

	if s.Version < 8 {
		t.Errorf("struct version %d, want >= 8", s.Version)
	}
	if s.PID != pid {
		t.Errorf("ac_pid = %d, want %d", s.PID, pid)
	}
	if s.PPID != os.Getppid() {
		t.Errorf("ac_ppid = %d, want %d", s.PPID, os.Getppid())
	}
	if s.Version >= 12 && s.TGID != pid {
		t.Errorf("ac_tgid = %d, want %d", s.TGID, pid)
	}
	if want := strings.TrimSpace(string(comm)); s.Comm != want {
		t.Errorf("ac_comm = %q, want %q", s.Comm, want)
	}
	if s.UID != uint32(os.Getuid()) || s.GID != uint32(os.Getgid()) {
		t.Errorf("ac_uid, ac_gid = %d, %d; want %d, %d", s.UID, s.GID, os.Getuid(), os.Getgid())
	}
	if s.ExitCode != 0 || s.GroupExit() {
		t.Errorf("live task with exit code %d, flag %#x", s.ExitCode, s.Flag)
	}
	if minflt := atou(t, stat[7]); s.MinFlt == 0 || s.MinFlt > minflt {
		t.Errorf("ac_minflt = %d, /proc says %d afterwards", s.MinFlt, minflt)
	}
	if nv := atou(t, status["voluntary_ctxt_switches"]); s.NVCSW > nv {
		t.Errorf("nvcsw = %d, /proc says %d afterwards", s.NVCSW, nv)
	}
	if niv := atou(t, status["nonvoluntary_ctxt_switches"]); s.NIVCSW > niv {
		t.Errorf("nivcsw = %d, /proc says %d afterwards", s.NIVCSW, niv)
	}
	if now := time.Now().Unix(); int64(s.BTime) > now || s.BTime == 0 {
		t.Errorf("ac_btime = %d, now is %d", s.BTime, now)
	}
}

// TestReadCharCounts reads 8 KiB on a thread of its own and expects
// read_char to grow by at least that. (The kernel rounds the four
// read/write counters down to a multiple of 1024; 8192 is one, so the
// rounded value grows by at least 8192 too.)
func TestReadCharCounts(t *testing.T) {
	c := openClient(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := unix.Gettid()
	fd, err := unix.Open("/dev/zero", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	before, err := c.PID(tid)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8192)
	if n, err := unix.Read(fd, buf); err != nil || n != len(buf) {
		t.Fatalf("read /dev/zero: %d, %v", n, err)
	}
	after, err := c.PID(tid)
	if err != nil {
		t.Fatal(err)
	}
	if after.ReadChar < before.ReadChar+8192 {
		t.Errorf("read_char %d then %d after reading 8192 bytes", before.ReadChar, after.ReadChar)
	}
	if after.WriteChar < before.WriteChar {
		t.Errorf("write_char went down: %d then %d", before.WriteChar, after.WriteChar)
	}
}

func TestCPUTimeGrows(t *testing.T) {
	c := openClient(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := unix.Gettid()
	before, err := c.PID(tid)
	if err != nil {
		t.Fatal(err)
	}
	if before.PID != tid {
		t.Fatalf("ac_pid = %d, want the thread id %d", before.PID, tid)
	}
	after := before
	deadline := time.Now().Add(time.Minute) // a guard against a hang, not a measure
	x := uint64(1)
	for after.UTimeUS == before.UTimeUS && time.Now().Before(deadline) {
		for i := 0; i < 1_000_000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
		if after, err = c.PID(tid); err != nil {
			t.Fatal(err)
		}
	}
	if after.UTimeUS <= before.UTimeUS {
		t.Fatalf("ac_utime did not grow while burning CPU: %d then %d (x=%d)", before.UTimeUS, after.UTimeUS, x)
	}
	if after.ETimeUS <= before.ETimeUS {
		t.Errorf("ac_etime did not grow: %d then %d", before.ETimeUS, after.ETimeUS)
	}

	// The process's total is summed over its live threads, this one
	// included, and read later: it cannot be smaller.
	g, err := c.TGID(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if g.TGID != os.Getpid() {
		t.Errorf("TGID answer names %d, want %d", g.TGID, os.Getpid())
	}
	if g.UTimeUS < after.UTimeUS || g.CPUTimeUS() < after.CPUTimeUS() {
		t.Errorf("process utime %d, cpu %d; below its thread's %d, %d", g.UTimeUS, g.CPUTimeUS(), after.UTimeUS, after.CPUTimeUS())
	}
	if g.NVCSW+g.NIVCSW < after.NVCSW+after.NIVCSW {
		t.Errorf("process context switches %d below its thread's %d", g.NVCSW+g.NIVCSW, after.NVCSW+after.NIVCSW)
	}
}

func TestNoSuchTask(t *testing.T) {
	c := openClient(t)
	b, err := os.ReadFile("/proc/sys/kernel/pid_max")
	if err != nil {
		t.Fatal(err)
	}
	beyond := int(atou(t, strings.TrimSpace(string(b)))) + 1 // no pid can be this large
	if _, err := c.PID(beyond); !errors.Is(err, ErrNoTask) {
		t.Errorf("PID(%d): %v, want ErrNoTask", beyond, err)
	}
	if _, err := c.TGID(beyond); !errors.Is(err, ErrNoTask) {
		t.Errorf("TGID(%d): %v, want ErrNoTask", beyond, err)
	}
	if _, err := c.PID(0); err == nil {
		t.Error("PID(0) gave no error")
	}
	// The client still works after refusals.
	if s, err := c.PID(os.Getpid()); err != nil || s.PID != os.Getpid() {
		t.Errorf("PID(self) after errors: %+v, %v", s, err)
	}
}
