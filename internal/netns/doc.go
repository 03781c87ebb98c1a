// Package netns runs processes on "several machines on one" for tests:
// Linux network namespaces joined by a bridge that the package creates and
// removes itself.
//
// Why: a test of remote load nodes must show that each node talks to the
// master over a network of its own (its own address, its own loopback, a
// link that can be cut), yet no test may leave this machine. A network
// namespace has its own interfaces, routes and loopback; a veth pair is a
// cable between two namespaces; a Linux bridge is the switch. Nothing here
// needs netem, iptables or nft (none are available on the test machines):
// a partition is a link set down.
//
// What New creates, in the root namespace and in n new ones:
//
//	bridge    <base>br            10.250.K.1/24, up    (HostIP)
//	namespace <base>n<i>          i = 1..n, lo up
//	veth      <base>v<i>          host end, enslaved to the bridge, up
//	          eth0 (inside <base>n<i>) 10.250.K.(10+i)/24, up  (IP(i))
//
// <base> is the caller's prefix, the creating process's pid in five base-36
// digits and one character counting the Nets of that process, so parallel
// test binaries and several Nets in one binary never share a name; every
// name fits the kernel's 15 characters. K is the first /24 of 10.250.0.0/16
// (starting from one derived from the pid) that overlaps no address and no
// route of any table on the machine; the choice and the bridge's address are
// made under a lock file (/run/lock/dbgauge-netns.lock), so two processes
// never take the same K.
//
// Address plan and isolation: a namespace has exactly one route, the /24 on
// its eth0, and no default route, so it reaches the bridge's host address
// and the other namespaces and nothing else: a packet for any other address
// fails at once with "network is unreachable", nothing is forwarded off the
// /24, and 127.0.0.1 inside a namespace is that namespace's own loopback,
// not the host's. A server meant for the namespaces therefore listens on
// HostIP, not on loopback. (The kernel also gives every link an IPv6
// link-local address; those, too, reach only the links of this bridge.)
//
// Clean-up: Close kills every process still inside the namespaces (and
// every Command started but not yet inside), then deletes the veths, the namespaces and the bridge, only those it created.
// New first removes the objects of its prefix that a killed earlier process
// left behind (their pid, read from their names, no longer runs), and on any
// error removes what it created itself. All of it needs root and the ip
// command (iproute2); New says so when either is missing.
//
// Tests use netnstest.ForTest, which fails the test (never skips) when the
// namespaces cannot be made and registers Close with t.Cleanup.
package netns
