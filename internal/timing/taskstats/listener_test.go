package taskstats

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// syncTimeout bounds Sync in tests; it is a guard against a hang, not a
// measure: the marker's record normally arrives within microseconds.
const syncTimeout = 30 * time.Second

// syncDrain waits for the listener to catch up and returns what it holds.
func syncDrain(t *testing.T, l *Listener) []Exit {
	t.Helper()
	if err := l.Sync(syncTimeout); err != nil {
		t.Fatalf("Sync: %v (lost %d)", err, l.Lost())
	}
	return l.Drain()
}

func findExit(exits []Exit, k Kind, id int) (Exit, bool) {
	for _, e := range exits {
		if e.Kind == k && e.ID == id {
			return e, true
		}
	}
	return Exit{}, false
}

// TestListenerCatchesShortProcess is the "must show": a process
// that starts and ends in the middle of a query execution (between the two
// snapshots) is caught by the exit listener, with its own statistics.
func TestListenerCatchesShortProcess(t *testing.T) {
	l := openListener(t)
	syncDrain(t, l) // the "first snapshot": start from an empty buffer

	cmd := exec.Command("sh", "-c", `i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; exit 3`)
	if err := cmd.Run(); cmd.ProcessState == nil {
		t.Fatalf("running sh: %v", err)
	}
	pid := cmd.Process.Pid

	exits := syncDrain(t, l) // the "second snapshot"
	e, ok := findExit(exits, KindPID, pid)
	if !ok {
		t.Fatalf("no exit record for sh (pid %d) among %d records; lost %d", pid, len(exits), l.Lost())
	}
	s := e.Stats
	if s.PID != pid || s.PPID != os.Getpid() || s.Comm != "sh" {
		t.Errorf("record says pid %d, ppid %d, comm %q; want %d, %d, \"sh\"", s.PID, s.PPID, s.Comm, pid, os.Getpid())
	}
	if s.ExitCode != 3<<8 {
		t.Errorf("ac_exitcode = %#x, want %#x (exit 3)", s.ExitCode, 3<<8)
	}
	if !s.GroupExit() {
		t.Errorf("single-threaded process's record without AGROUP (flag %#x)", s.Flag)
	}
	if s.ETimeUS == 0 || s.MinFlt == 0 {
		t.Errorf("elapsed %d µs, %d minor faults: a process that ran sh has both", s.ETimeUS, s.MinFlt)
	}
	// Sync's marker ("true", our child) is the listener's own business.
	for _, x := range exits {
		if x.Stats.PPID == os.Getpid() && x.Stats.Comm == "true" {
			t.Errorf("Drain reported Sync's marker: %+v", x)
		}
	}
	if again := l.Drain(); len(again) != 0 {
		t.Errorf("second Drain returned %d records; Drain must clear", len(again))
	}
}

// TestListenerChildCPU runs a short child (this test binary in child mode,
// see burnChild) that ends only once the kernel has charged it CPU time,
// and finds that CPU time in its exit record; the child is multi-threaded,
// so its process also gets a TGID record.
func TestListenerChildCPU(t *testing.T) {
	l := openListener(t)
	syncDrain(t, l)

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=burn")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v: %s", err, errb.Bytes())
	}
	var tid int
	var cpuSeen uint64
	var junk int
	if _, err := fmt.Sscan(out.String(), &tid, &cpuSeen, &junk); err != nil {
		t.Fatalf("child said %q: %v", out.String(), err)
	}
	pid := cmd.Process.Pid

	exits := syncDrain(t, l)
	e, ok := findExit(exits, KindPID, tid)
	if !ok {
		t.Fatalf("no exit record for the child's thread %d (pid %d) among %d; lost %d", tid, pid, len(exits), l.Lost())
	}
	if e.Stats.CPUTimeUS() == 0 || e.Stats.CPUTimeUS() < cpuSeen {
		t.Errorf("exit record CPU %d µs; the thread saw %d µs before exiting", e.Stats.CPUTimeUS(), cpuSeen)
	}
	if e.Stats.Version >= 12 && e.Stats.TGID != pid {
		t.Errorf("thread's record names process %d, want %d", e.Stats.TGID, pid)
	}
	if _, ok := findExit(exits, KindPID, pid); !ok {
		t.Errorf("no record for the child's main thread %d", pid)
	}
	g, ok := findExit(exits, KindTGID, pid)
	if !ok {
		t.Fatalf("no TGID record for the multi-threaded child %d", pid)
	}
	if g.Stats.TGID != pid {
		t.Errorf("TGID record names %d, want %d", g.Stats.TGID, pid)
	}
	// Exactly one of the child's threads ended the process.
	groupEnds := 0
	for _, x := range exits {
		if x.Kind == KindPID && x.Stats.TGID == pid && x.Stats.GroupExit() {
			groupEnds++
		}
	}
	if e.Stats.Version >= 12 && groupEnds != 1 {
		t.Errorf("%d of the child's thread records have AGROUP, want 1", groupEnds)
	}
}

// TestListenerEveryCPU pins a short child to each CPU in turn (a child
// inherits the affinity of the thread that forks it, so it exits on that
// CPU) and expects every one to be caught. A listener registered for CPU 0
// only, as AZDBLab's was, fails this on any machine with two CPUs.
func TestListenerEveryCPU(t *testing.T) {
	l := openListener(t)
	syncDrain(t, l)

	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var orig unix.CPUSet
	if err := unix.SchedGetaffinity(0, &orig); err != nil {
		t.Fatal(err)
	}
	defer unix.SchedSetaffinity(0, &orig)

	pids := map[int]int{} // cpu -> child pid
	for cpu := 0; cpu < 1024; cpu++ {
		if !orig.IsSet(cpu) {
			continue
		}
		var one unix.CPUSet
		one.Set(cpu)
		if err := unix.SchedSetaffinity(0, &one); err != nil {
			t.Fatalf("pinning to CPU %d: %v", cpu, err)
		}
		cmd := exec.Command("sh", "-c", "exit 0")
		if err := cmd.Run(); err != nil {
			t.Fatalf("child on CPU %d: %v", cpu, err)
		}
		pids[cpu] = cmd.Process.Pid
	}
	if err := unix.SchedSetaffinity(0, &orig); err != nil {
		t.Fatal(err)
	}
	t.Logf("one child on each of CPUs %v", pids)

	exits := syncDrain(t, l)
	for cpu, pid := range pids {
		if _, ok := findExit(exits, KindPID, pid); !ok {
			t.Errorf("exit of the child on CPU %d (pid %d) not caught; lost %d", cpu, pid, l.Lost())
		}
	}
}

// TestListenerOverrun stalls the listener's goroutine while exits pile up
// on a tiny receive buffer, and expects the overrun to be counted and the
// listener to go on working.
func TestListenerOverrun(t *testing.T) {
	l, err := listen(1) // the kernel raises it to its minimum, a few KiB
	skipIfUnavailable(t, err)
	defer l.Close()
	before := l.Lost()

	l.mu.Lock() // the receive loop blocks on its next record
	const children = 50
	for i := 0; i < children; i++ {
		if err := exec.Command("sh", "-c", "exit 0").Run(); err != nil {
			l.mu.Unlock()
			t.Fatal(err)
		}
	}
	l.mu.Unlock()
	// Make room again so that the marker's record cannot be dropped too.
	if err := setReadBuffer(l.nc, readBuffer); err != nil {
		t.Fatal(err)
	}
	if err := l.Sync(syncTimeout); err != nil {
		t.Fatalf("Sync after an overrun: %v", err)
	}
	lost := l.Lost() - before
	got := len(l.Drain())
	if lost == 0 {
		t.Fatalf("no loss counted after %d exits into a stalled listener (%d received)", children, got)
	}
	if l.Err() != nil {
		t.Errorf("listener stopped: %v", l.Err())
	}
	t.Logf("%d exits: %d received, %d lost", children, got, lost)

	// Still catching exits after the overrun.
	cmd := exec.Command("sh", "-c", "exit 0")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if _, ok := findExit(syncDrain(t, l), KindPID, cmd.Process.Pid); !ok {
		t.Error("exit after the overrun not caught")
	}
}

func TestListenerClose(t *testing.T) {
	l, err := Listen()
	skipIfUnavailable(t, err)
	if err := l.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := l.Sync(time.Second); err == nil {
		t.Error("Sync on a closed listener succeeded")
	}
	// The closed socket is gone from the kernel's table.
	if _, ok := socketDrops(l.portid); ok {
		t.Errorf("socket %d still listed in /proc/net/netlink after Close", l.portid)
	}
}

// TestListenerSocketListed checks that Lost reads this socket's own line in
// /proc/net/netlink (and so counts exactly, not by ENOBUFS reports).
func TestListenerSocketListed(t *testing.T) {
	l := openListener(t)
	if _, ok := socketDrops(l.portid); !ok {
		t.Errorf("listener socket %d not found in /proc/net/netlink", l.portid)
	}
}
