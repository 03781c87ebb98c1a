package netns

import (
	"encoding/json"
	"errors"
	"os"
	"sync"
	"syscall"
)

// live holds the bases of this process's Nets from New to Close: objects
// with this process's pid but another base were left by an earlier process
// that had the same pid.
var live sync.Map

// removeStale removes the namespaces, bridges and veths that a process
// killed before its Close left behind: those whose names this package made
// with prefix and whose pid (read from the name) no longer runs, or is
// this process's but not of one of its Nets. It is best effort: what it
// cannot list or remove stays, and New goes on (if a stale name is one it
// needs, it fails naming it).
func removeStale(prefix string) {
	self := os.Getpid()
	stale := func(name string) bool {
		pid, ok := ownerPID(prefix, name)
		if !ok {
			return false
		}
		if pid == self {
			_, mine := live.Load(base(name[:len(prefix)+pidDigits+1]))
			return !mine
		}
		return !running(pid)
	}
	if out, err := ip("-j", "netns", "list"); err == nil {
		var list []struct {
			Name string `json:"name"`
		}
		if json.Unmarshal([]byte(out), &list) == nil {
			for _, ns := range list {
				if stale(ns.Name) {
					killInside(ns.Name)
					remove(object{name: ns.Name, ns: true})
				}
			}
		}
	}
	if out, err := ip("-j", "link", "show"); err == nil {
		var list []struct {
			Name string `json:"ifname"`
		}
		if json.Unmarshal([]byte(out), &list) == nil {
			for _, l := range list {
				if stale(l.Name) {
					remove(object{name: l.Name})
				}
			}
		}
	}
}

// running tells whether process pid exists (a zombie counts: its parent
// may still Close). It assumes the names' pids are of this pid namespace,
// as they are for test binaries run side by side.
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
