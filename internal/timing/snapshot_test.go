package timing

import (
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"
)

func takeSnapshot(t *testing.T, opts SnapshotOptions) *Snapshot {
	t.Helper()
	s, err := TakeSnapshot(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestTakeSnapshotSeesSelfAndThreads(t *testing.T) {
	pid := os.Getpid()
	snap := takeSnapshot(t, SnapshotOptions{Threads: map[int][]int{pid: nil}})
	self, ok := snap.Procs[pid]
	if !ok {
		t.Fatalf("own process %d not in the snapshot", pid)
	}
	if _, ok := snap.Procs[1]; !ok {
		t.Error("init not in the snapshot")
	}
	if !self.AllThreads || len(self.Threads) < 2 {
		t.Errorf("own threads: all %v, %d threads", self.AllThreads, len(self.Threads))
	}
	if main, ok := self.Threads[pid]; !ok || main.TID != pid || main.StartTime != self.StartTime {
		t.Errorf("main thread sample %+v", main)
	}
	if snap.System.CPU.User == 0 || snap.System.CPU.Idle == 0 || snap.System.Forks == 0 {
		t.Errorf("system sample %+v", snap.System)
	}
	// This machine has a virtio disk and PSI (ttp.md section 2).
	if !snap.System.HasDisk || len(snap.System.Disk.Disks) == 0 || !snap.System.HasPressureIO || !snap.System.HasPressureCPU {
		t.Errorf("optional system counters: %+v", snap.System)
	}

	chosen := takeSnapshot(t, SnapshotOptions{Threads: map[int][]int{pid: {pid}}, SystemFirst: true})
	if s := chosen.Procs[pid]; s.AllThreads || len(s.Threads) != 1 {
		t.Errorf("chosen thread only: all %v, threads %d", s.AllThreads, len(s.Threads))
	}
	if chosen.System.CPU.User < snap.System.CPU.User {
		t.Error("user ticks went backwards between two snapshots")
	}
}

// waitChild waits for a child of parent running the program comm: a
// child seen between its fork and its exec still has its parent's name
// (26 of 300 snapshots right after the child appeared, beside two CPU
// burners), so a child counts once it has become comm.
func waitChild(t *testing.T, parent int, comm string) (*Snapshot, int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		snap := takeSnapshot(t, SnapshotOptions{})
		if d := Descendants(snap, parent); len(d) > 0 && snap.Procs[d[0]].Comm == comm {
			return snap, d[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no child %s of %d appeared", comm, parent)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestDescendantsOfShell(t *testing.T) {
	// "; exit 0" keeps sh from exec'ing sleep in its own place.
	sh := start(t, exec.Command("/bin/sh", "-c", "sleep 30; exit 0")).Process.Pid
	snap, sleep := waitChild(t, sh, "sleep")
	if got := Descendants(snap, sh); !slices.Equal(got, []int{sleep}) {
		t.Errorf("descendants of sh %d: %v, want [%d]", sh, got, sleep)
	}
	mine := Descendants(snap, os.Getpid())
	if !slices.Contains(mine, sh) || !slices.Contains(mine, sleep) || slices.Contains(mine, os.Getpid()) {
		t.Errorf("descendants of the test %v, want sh %d and sleep %d, not the root", mine, sh, sleep)
	}
}

func findUsage(u QEUsage, pid int) (ProcessUsage, bool) {
	for _, p := range u.Processes {
		if p.PID == pid {
			return p, true
		}
	}
	return ProcessUsage{}, false
}

func TestDiffStartedChild(t *testing.T) {
	before := takeSnapshot(t, SnapshotOptions{})
	child := startNamed(t, "started-child", "30").Process.Pid
	after := takeSnapshot(t, SnapshotOptions{SystemFirst: true})

	u := Diff(before, after, Roles{}, nil)
	p, ok := findUsage(u, child)
	if !ok || !p.Started || p.Exited || p.Class != Daemon || p.Comm != "started-child" {
		t.Fatalf("child %d: %+v (listed %v)", child, p, ok)
	}
	if u.Started < 1 || u.Forks < 1 {
		t.Errorf("started %d, forks %d", u.Started, u.Forks)
	}
	if own, ok := findUsage(Diff(before, after, Roles{Trees: []int{os.Getpid()}}, nil), child); !ok || own.Class != Utility {
		t.Errorf("child of a utility tree: %+v", own)
	}
}

func TestDiffExitedChild(t *testing.T) {
	cmd := startNamed(t, "exiting-child", "30")
	child := cmd.Process.Pid
	before := takeSnapshot(t, SnapshotOptions{})
	if _, ok := before.Procs[child]; !ok {
		t.Fatalf("child %d not in the first snapshot", child)
	}
	cmd.Process.Kill()
	cmd.Wait()
	after := takeSnapshot(t, SnapshotOptions{SystemFirst: true})

	unseen := Diff(before, after, Roles{}, nil)
	if !slices.ContainsFunc(unseen.Unseen, func(p ProcessInfo) bool { return p.PID == child && p.Comm == "exiting-child" }) {
		t.Fatalf("child %d not unseen: %+v", child, unseen.Unseen)
	}
	if _, listed := findUsage(unseen, child); listed {
		t.Error("an unaccounted exit is listed with a usage")
	}

	rec := ExitedProcess{PID: child, Comm: "exiting-child", Usage: Usage{UserTicks: before.Procs[child].UTime + 3}}
	seen := Diff(before, after, Roles{}, []ExitedProcess{rec})
	if seen.Ephemeral != unseen.Ephemeral-1 || slices.ContainsFunc(seen.Unseen, func(p ProcessInfo) bool { return p.PID == child }) {
		t.Errorf("with the exit record: ephemeral %d (was %d), unseen %+v", seen.Ephemeral, unseen.Ephemeral, seen.Unseen)
	}
	if p, ok := findUsage(seen, child); !ok || !p.Exited || p.Usage.UserTicks != 3 {
		t.Errorf("exited child usage %+v", p)
	}
}

func TestSamplerKeepsFilesFresh(t *testing.T) {
	sm := NewSampler()
	defer sm.Close()
	cmd := start(t, exec.Command("/bin/sh", "-c", "while :; do :; done"))
	child := cmd.Process.Pid
	first, err := sm.Snapshot(SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sm.held[taskKey{child, 0}] == nil {
		t.Fatalf("no files kept for child %d", child)
	}
	// The kept descriptors must give new counters at every snapshot.
	deadline := time.Now().Add(60 * time.Second)
	for {
		snap, err := sm.Snapshot(SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if snap.Procs[child].UTime > first.Procs[child].UTime && snap.Procs[child].RunNS > first.Procs[child].RunNS {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("kept files stuck at utime %d", snap.Procs[child].UTime)
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	snap, err := sm.Snapshot(SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := snap.Procs[child]; ok || sm.held[taskKey{child, 0}] != nil {
		t.Errorf("reaped child %d still sampled (%v) or its files kept (%v)", child, ok, sm.held[taskKey{child, 0}] != nil)
	}
	sm.Close()
	if len(sm.held) != 0 {
		t.Errorf("%d processes' files kept after Close", len(sm.held))
	}
}

func TestKeptFileOfReapedProcess(t *testing.T) {
	// The guarantee Sampler rests on: a descriptor kept open on a
	// process's file fails with ESRCH once the process is gone, so it can
	// never read a later process that got the same PID.
	cmd := startNamed(t, "kept", "30")
	h, err := openHeld(procDir(cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	defer h.close()
	r := newProcReader()
	if _, err := r.pread(h.fd[fileStat]); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	for k := range h.fd {
		if _, err := r.pread(h.fd[k]); err != syscall.ESRCH {
			t.Errorf("%s of a reaped process: %v, want ESRCH", taskFileNames[k], err)
		}
	}
}

func BenchmarkTakeSnapshot(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := TakeSnapshot(SnapshotOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSnapshotOpeningFiles is a snapshot without kept files: every
// file opened, read and closed (the first snapshot of a Sampler).
func BenchmarkSnapshotOpeningFiles(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sm := NewSampler()
		if _, err := sm.Snapshot(SnapshotOptions{}); err != nil {
			b.Fatal(err)
		}
		sm.Close()
	}
}

// TreeTicks sums a process and its descendants with their reaped
// children's time, nothing else.
func TestTreeTicks(t *testing.T) {
	snap := &Snapshot{Procs: map[int]ProcSample{
		1:  {PID: 1, PPID: 0, UTime: 1000},
		10: {PID: 10, PPID: 1, UTime: 6, STime: 2, CUTime: 1, CSTime: 1}, // 10
		11: {PID: 11, PPID: 10, UTime: 5},
		12: {PID: 12, PPID: 11, STime: 2},
		13: {PID: 13, PPID: 1, UTime: 100},
	}}
	if ticks, ok := TreeTicks(snap, 10); ticks != 17 || !ok {
		t.Errorf("tree of 10: %d ticks (%v), want 17", ticks, ok)
	}
	if ticks, ok := TreeTicks(snap, 99); ticks != 0 || ok {
		t.Errorf("missing root: %d, %v", ticks, ok)
	}
}

// A shell's waited-for child's CPU time shows in the shell's CUTime and
// CSTime once the child has exited.
func TestReapedChildTicks(t *testing.T) {
	sh := start(t, exec.Command("/bin/sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done & wait; sleep 30; exit 0")).Process.Pid
	for range 600 {
		p, err := ReadProcess(sh)
		if err != nil {
			t.Fatal(err)
		}
		if p.CUTime+p.CSTime > 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Error("the shell's reaped child's CPU time never showed in its CUTime+CSTime")
}
