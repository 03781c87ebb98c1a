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
// and the namespace's eth0 loses its carrier. Packets in both directions
// are dropped silently: nothing sends a reset, so TCP connections in
// flight stay open at both ends and their data waits in retransmission;
// a new connection cannot be made (its SYNs are lost, or it fails with "no
// route to host" once the neighbour entry expires). The processes notice
// only through their own time-outs and heartbeats, as on a real network.
// The other namespaces and the host are not affected.
func (nt *Net) Partition(i int) error {
	nt.check(i)
	_, err := ip("link", "set", nt.base.veth(i), "down")
	return err
}

// Heal reconnects namespace i after Partition. Connections that survived
// the partition (none of their time-outs fired) resume: their
// retransmissions now arrive.
func (nt *Net) Heal(i int) error {
	nt.check(i)
	_, err := ip("link", "set", nt.base.veth(i), "up")
	return err
}
