package server

import (
	"context"
	"errors"
	"runtime"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestPostgresStopWaitsForThePostmaster: the postmaster removes its pid
// file as the last thing before it exits, and pg_ctl stop -w returns when
// the file is gone. On a busy machine the process was still there when
// Stop returned, and a start right after refused the directory as
// running ("instance running: node n1 ... stop it first" in
// TestPostgresStandbys under load). The postmaster is held at its exit
// here (ptrace's exit stop: after it removed its pid file, before the
// kernel ends it), the widest form of that moment: Stop must not return
// before the process has ended, and a start afterwards must succeed.
func TestPostgresStopWaitsForThePostmaster(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	inst, err := Start(ctx, "postgres", dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pid := inst.PID
	release := holdAtExit(t, pid)
	waiting := make(chan int, 1)
	awaitingExit = func(p int) { waiting <- p }
	defer func() { awaitingExit = nil }()

	type outcome struct {
		err     error
		running bool // the postmaster still ran when Stop returned
	}
	stopped := make(chan outcome, 1)
	go func() {
		err := inst.Stop()
		stopped <- outcome{err, running(pid)}
	}()
	var got outcome
	select {
	case p := <-waiting: // Stop waits for the process: let it end
		if p != pid {
			t.Errorf("Stop waits for pid %d, want the postmaster's %d", p, pid)
		}
		release()
		got = <-stopped
	case got = <-stopped:
		release()
	}
	if got.err != nil || got.running {
		t.Fatalf("Stop returned %v with the postmaster (pid %d) running: %v", got.err, pid, got.running)
	}
	again, err := Start(ctx, "postgres", dir, Options{})
	if err != nil {
		t.Fatalf("start right after the stop: %v", err)
	}
	if err := again.Stop(); err != nil {
		t.Error(err)
	}
}

// holdAtExit traces pid (ptrace, on a thread of its own) and keeps it at
// its exit stop: its own clean-up done, the process not yet ended.
// Signals it gets meanwhile are passed on. The returned function lets it
// end (once; also at the end of the test).
func holdAtExit(t *testing.T, pid int) (release func()) {
	t.Helper()
	seized, let := make(chan error, 1), make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Every ptrace request must come from the tracing thread.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		_, _, e := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_SEIZE, uintptr(pid), 0, unix.PTRACE_O_TRACEEXIT, 0, 0)
		if e != 0 {
			seized <- e
			return
		}
		seized <- nil
		for {
			var ws unix.WaitStatus
			if _, err := unix.Wait4(pid, &ws, unix.WALL, nil); err != nil {
				if !errors.Is(err, syscall.EINTR) {
					return
				}
				continue
			}
			switch {
			case !ws.Stopped():
				return // ended
			case ws.StopSignal() == syscall.SIGTRAP && ws.TrapCause() == unix.PTRACE_EVENT_EXIT:
				<-let
				unix.PtraceDetach(pid)
				return
			default:
				unix.PtraceCont(pid, int(ws.StopSignal())) // deliver the signal
			}
		}
	}()
	if err := <-seized; err != nil {
		t.Fatalf("ptrace the postmaster %d: %v", pid, err)
	}
	var once bool
	release = func() {
		if !once {
			once = true
			close(let)
			<-done
		}
	}
	t.Cleanup(release)
	return release
}
