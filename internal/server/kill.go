package server

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// Kill ends the instance's server process with SIGKILL (kill -9), as a
// crash or the kernel's out-of-memory killer would: no shutdown, no
// checkpoint. The instance's record stays, so Start (or RestartAfter) can
// bring it back and Stop still finds it. It returns once the process is
// gone.
func (i *Instance) Kill() error {
	if i.PID <= 0 {
		return fmt.Errorf("kill %s in %s: no server process recorded", i.Engine, i.Dir)
	}
	if err := syscall.Kill(i.PID, syscall.SIGKILL); err != nil {
		return fmt.Errorf("kill %s (pid %d): %w", i.Engine, i.PID, err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for running(i.PID) {
		if time.Now().After(deadline) {
			return fmt.Errorf("kill %s: pid %d still runs 30 s after SIGKILL", i.Engine, i.PID)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Give whoever reaps it (its parent, or init for a daemon) a moment:
	// a zombie still answers kill(pid, 0), which a server's own
	// stale-lock check takes for a running server.
	for reap := time.Now().Add(5 * time.Second); exists(i.PID) && time.Now().Before(reap); {
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// exists reports whether pid has a process table entry, zombie or not.
func exists(pid int) bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
	return err == nil
}

// running reports whether pid exists and is not a zombie (a killed child
// of this process stays one until it is reaped, and still answers
// kill(pid, 0)).
func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses (proc(5)).
	s := string(b)
	if j := strings.LastIndexByte(s, ')'); j >= 0 && j+2 < len(s) {
		return s[j+2] != 'Z'
	}
	return true
}
