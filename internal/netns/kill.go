package netns

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// killPasses bounds how often killInside scans /proc: a pass that finds a
// process inside may have missed a child it forked meanwhile, so it scans
// again until a pass finds nothing new.
const killPasses = 10

// killInside sends SIGKILL to every process in namespace ns, and to every
// `ip netns exec ns` still on its way in (started, not yet joined: it would
// join after the scan and live on in an unnamed namespace). A process left
// there would keep the namespace, and the test's port or database load,
// alive after Close.
//
// It reads /proc itself rather than run `ip netns pids`, because that sees
// only processes already inside.
func killInside(ns string) error {
	var target syscall.Stat_t
	if err := syscall.Stat(filepath.Join("/run/netns", ns), &target); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("netns: %s: %w", ns, err)
	}
	self := os.Getpid()
	signalled := map[int]bool{}
	var errs []error
	for range killPasses {
		entries, err := os.ReadDir("/proc")
		if err != nil {
			return fmt.Errorf("netns: list processes: %w", err)
		}
		found := false
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == self || signalled[pid] {
				continue
			}
			// cmdline before ns: ip joins the namespace before it execs
			// the target, so a process that no longer looks like
			// `ip netns exec ns` and is ours is already inside.
			if !entering(pid, ns) && !inside(pid, &target) {
				continue
			}
			found, signalled[pid] = true, true
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
				errs = append(errs, fmt.Errorf("netns: kill %d in %s: %w", pid, ns, err))
			}
		}
		if !found {
			break
		}
	}
	return errors.Join(errs...)
}

// entering tells whether process pid is `ip netns exec ns ...`, as Command
// starts it, not yet replaced by its target.
func entering(pid int, ns string) bool {
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return false
	}
	args := bytes.Split(cmdline, []byte{0})
	return len(args) >= 4 && filepath.Base(string(args[0])) == "ip" &&
		string(args[1]) == "netns" && string(args[2]) == "exec" && string(args[3]) == ns
}

// inside tells whether process pid's network namespace is target (the same
// nsfs inode, as `ip netns pids` compares them).
func inside(pid int, target *syscall.Stat_t) bool {
	var st syscall.Stat_t
	if syscall.Stat("/proc/"+strconv.Itoa(pid)+"/ns/net", &st) != nil {
		return false // gone, a zombie, or a kernel thread
	}
	return st.Dev == target.Dev && st.Ino == target.Ino
}
