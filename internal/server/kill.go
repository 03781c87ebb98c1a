package server

import (
	"fmt"
	"os"
	"strconv"
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
	return i.waitGone()
}

// Crash ends the instance's server and every process it started with
// SIGKILL, as a machine's crash would. Kill ends the server process
// alone, and a PostgreSQL backend outlives its postmaster for a moment,
// long enough to commit a transaction a client then counts: on a
// replicated node that has been failed over, a write the new primary
// never sees. The children are found first, the server killed (so that
// it starts no new child), then each child.
func (i *Instance) Crash() error {
	if i.PID <= 0 {
		return fmt.Errorf("kill %s in %s: no server process recorded", i.Engine, i.Dir)
	}
	children := childrenOf(i.PID)
	if err := syscall.Kill(i.PID, syscall.SIGKILL); err != nil {
		return fmt.Errorf("kill %s (pid %d): %w", i.Engine, i.PID, err)
	}
	for _, c := range children {
		syscall.Kill(c, syscall.SIGKILL) // gone already is as good
	}
	for _, c := range children {
		for deadline := time.Now().Add(30 * time.Second); running(c) && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
	}
	return i.waitGone()
}

// childrenOf lists the live processes whose parent is pid (proc(5): the
// third and fourth fields of /proc/PID/stat are the state and the parent).
func childrenOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		c, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", c))
		if err != nil {
			continue
		}
		s := string(b)
		j := strings.LastIndexByte(s, ')')
		if j < 0 {
			continue
		}
		f := strings.Fields(s[j+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) && f[0] != "Z" {
			out = append(out, c)
		}
	}
	return out
}

// awaitingExit, when set (by the tests), is told of every process
// waitExit is about to wait for.
var awaitingExit func(pid int)

// waitExit returns once pid has ended (a zombie has: it runs nothing
// more), or an error naming what after limit.
func waitExit(pid int, what string, limit time.Duration) error {
	if awaitingExit != nil {
		awaitingExit(pid)
	}
	deadline := time.Now().Add(limit)
	for running(pid) {
		if time.Now().After(deadline) {
			return fmt.Errorf("%s (pid %d) still runs %v after it was ended", what, pid, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// waitGone returns once the killed server process is gone.
func (i *Instance) waitGone() error {
	if err := waitExit(i.PID, i.Engine+" after SIGKILL", 30*time.Second); err != nil {
		return fmt.Errorf("kill %s: %w", i.Engine, err)
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
