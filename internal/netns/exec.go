package netns

import (
	"context"
	"os/exec"
)

// Command returns the command name args run inside namespace i, through
// `ip netns exec`. ip joins the namespace (and a private mount namespace
// with the namespace's /sys) and then execs name in its own process, so
// the returned Cmd's Process.Pid, once started, is the target's pid:
// signals sent to it (SIGKILL, SIGSTOP, a ctx cancellation) reach the
// target itself, not a wrapper. The target inherits the environment and
// sees the namespace's eth0 and lo only.
func (nt *Net) Command(ctx context.Context, i int, name string, args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, "ip", append([]string{"netns", "exec", nt.Namespace(i), name}, args...)...)
}

// Partition cuts namespace i off the bridge: its host-side veth goes down,
// and the namespace's eth0 loses its carrier (which also flushes its
// neighbour table). Packets in both directions are dropped silently.
// Nothing sends a reset, so a TCP connection in flight stays open at both
// ends, its unacknowledged data waiting in retransmission, until one of its
// own time-outs fires (the kernel's take many minutes). A new connection
// from the namespace fails with "no route to host" after about 3 s (its
// ARP requests go unanswered). The processes notice the partition only
// through their own time-outs and heartbeats, as on a real network; the
// other namespaces and the host are not affected.
func (nt *Net) Partition(i int) error {
	nt.check(i)
	_, err := ip("link", "set", nt.base.veth(i), "down")
	return err
}

// Heal reconnects namespace i after Partition. Connections that survived
// the partition (none of their time-outs fired) resume: their next
// retransmission arrives, and what was sent during the partition with it.
//
// Heal also forgets the neighbour (ARP) entries of both ends of the cable:
// one still resolving when the link comes back would fail a moment later,
// with "no route to host" for a connect begun after Heal returned.
func (nt *Net) Heal(i int) error {
	nt.check(i)
	for _, args := range [][]string{
		{"link", "set", nt.base.veth(i), "up"},
		{"-n", nt.base.namespace(i), "neigh", "flush", "dev", "eth0"},
		{"neigh", "flush", "to", nt.IP(i), "dev", nt.base.bridge()},
	} {
		if _, err := ip(args...); err != nil {
			return err
		}
	}
	return nil
}
