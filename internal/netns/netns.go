package netns

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
)

// Net is one set of namespaces joined by a bridge; see the package comment
// for what it holds. Its methods may be called from several goroutines.
type Net struct {
	base   base
	n      int
	subnet netip.Prefix

	mu      sync.Mutex
	created []object // in creation order; Close removes them in reverse
}

// object is one thing New created: a link of the root namespace, or a
// named namespace.
type object struct {
	name string
	ns   bool
}

// seq counts the Nets this process has made, so that two of them (parallel
// tests of one binary) get different names.
var seq atomic.Int32

// New creates a bridge and n namespaces (1 <= n <= 200) named from prefix
// (1 to 5 lower-case letters). On any error it removes what it created and
// returns the error; the caller must Close a Net it got.
func New(prefix string, n int) (*Net, error) {
	if err := checkPrefix(prefix); err != nil {
		return nil, err
	}
	if n < 1 || n > maxNodes {
		return nil, fmt.Errorf("netns: %d namespaces asked; give 1 to %d", n, maxNodes)
	}
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("netns: network namespaces need root (this process runs as uid %d): run as root", os.Geteuid())
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return nil, fmt.Errorf("netns: the ip command is missing (%v): install iproute2", err)
	}
	pid := os.Getpid()
	nt := &Net{base: newBase(prefix, pid, int(seq.Add(1))), n: n}
	live.Store(nt.base, true)
	removeStale(prefix)
	if err := nt.create(pid); err != nil {
		if cerr := nt.Close(); cerr != nil {
			err = fmt.Errorf("%w (and removing what was made: %v)", err, cerr)
		}
		return nil, err
	}
	return nt, nil
}

// create makes the bridge, then each namespace and its cable, recording
// each object as soon as it exists so that Close removes exactly those.
func (nt *Net) create(pid int) error {
	if err := nt.createBridge(pid); err != nil {
		return err
	}
	for i := 1; i <= nt.n; i++ {
		ns, veth := nt.base.namespace(i), nt.base.veth(i)
		if _, err := ip("netns", "add", ns); err != nil {
			return err
		}
		nt.record(object{name: ns, ns: true})
		// The peer is born inside the namespace, so no eth0 ever appears
		// in the root namespace, even for a moment.
		if _, err := ip("link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns); err != nil {
			return err
		}
		nt.record(object{name: veth})
		for _, args := range [][]string{
			{"link", "set", veth, "master", nt.base.bridge(), "up"},
			{"-n", ns, "addr", "add", nt.IP(i) + "/24", "dev", "eth0"},
			{"-n", ns, "link", "set", "eth0", "up"},
			{"-n", ns, "link", "set", "lo", "up"},
		} {
			if _, err := ip(args...); err != nil {
				return err
			}
		}
	}
	return nil
}

// createBridge chooses the /24 and gives the bridge its address under the
// machine-wide lock: once the address is set, its route marks the /24 used
// for every other process.
func (nt *Net) createBridge(pid int) error {
	unlock, err := lockMachine()
	if err != nil {
		return err
	}
	defer unlock()
	used, err := usedPrefixes()
	if err != nil {
		return err
	}
	if nt.subnet, err = freeSubnet(used, 1+pid%254); err != nil {
		return err
	}
	br := nt.base.bridge()
	if _, err := ip("link", "add", br, "type", "bridge"); err != nil {
		return err
	}
	nt.record(object{name: br})
	if _, err := ip("addr", "add", nt.HostIP()+"/24", "dev", br); err != nil {
		return err
	}
	_, err = ip("link", "set", br, "up")
	return err
}

func (nt *Net) record(o object) {
	nt.mu.Lock()
	defer nt.mu.Unlock()
	nt.created = append(nt.created, o)
}

// N returns the number of namespaces; they are numbered 1 to N.
func (nt *Net) N() int { return nt.n }

// HostIP returns the bridge's address in the root namespace (10.250.K.1):
// the one address of this machine every namespace reaches.
func (nt *Net) HostIP() string { return nt.addr(1) }

// IP returns namespace i's address (10.250.K.(10+i)), i from 1 to N.
func (nt *Net) IP(i int) string {
	nt.check(i)
	return nt.addr(10 + i)
}

// Namespace returns namespace i's name, for `ip -n` or `ip netns exec`.
func (nt *Net) Namespace(i int) string {
	nt.check(i)
	return nt.base.namespace(i)
}

func (nt *Net) addr(host int) string {
	a := nt.subnet.Addr().As4()
	a[3] = byte(host)
	return netip.AddrFrom4(a).String()
}

// check panics on a namespace number out of range: a bug in the calling
// test, like an index out of range.
func (nt *Net) check(i int) {
	if i < 1 || i > nt.n {
		panic("netns: namespace " + strconv.Itoa(i) + " of 1.." + strconv.Itoa(nt.n))
	}
}

// Close kills (SIGKILL) every process still inside the namespaces, and
// every Command started but not yet inside, then deletes the veths, the
// namespaces and the bridge: only what New created. It does not wait for
// the killed processes; their Cmd's Wait reports "signal: killed". It is
// idempotent; after an error, calling it again retries what is left. A
// Command started while Close runs may escape it: stop starting first.
func (nt *Net) Close() error {
	nt.mu.Lock()
	defer nt.mu.Unlock()
	var errs []error
	for _, o := range nt.created {
		if o.ns {
			errs = append(errs, killInside(o.name))
		}
	}
	var left []object
	for k := len(nt.created) - 1; k >= 0; k-- {
		o := nt.created[k]
		if err := remove(o); err != nil {
			errs = append(errs, err)
			left = append([]object{o}, left...)
		}
	}
	nt.created = left
	if len(left) == 0 {
		live.Delete(nt.base)
	}
	return errors.Join(errs...)
}

// remove deletes one object; one already gone (removed by hand, or a veth
// taken with its namespace) is not an error.
func remove(o object) error {
	var err error
	if o.ns {
		_, err = ip("netns", "del", o.name)
	} else {
		_, err = ip("link", "del", o.name)
	}
	if err != nil && !exists(o) {
		return nil
	}
	return err
}

func exists(o object) bool {
	if o.ns {
		_, err := os.Stat("/run/netns/" + o.name)
		return err == nil
	}
	_, err := net.InterfaceByName(o.name)
	return err == nil
}
