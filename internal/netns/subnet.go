package netns

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"syscall"
)

// space is where the namespaces' /24 is taken from: private (RFC 1918) and
// rarely used, so a free /24 is found at once on ordinary machines.
var space = netip.MustParsePrefix("10.250.0.0/16")

// lockFile serialises, across processes, choosing a /24 and giving the
// bridge its address: between the two, another process would see the /24
// still free. The file stays (removing a lock file races with its next
// user); /run/lock is a tmpfs emptied at boot.
func lockFile() string {
	if fi, err := os.Stat("/run/lock"); err == nil && fi.IsDir() {
		return "/run/lock/dbgauge-netns.lock"
	}
	return filepath.Join(os.TempDir(), "dbgauge-netns.lock")
}

// lockMachine takes the machine-wide lock; the returned function releases it.
// The lock is released by the kernel if the process dies holding it.
func lockMachine() (unlock func(), err error) {
	f, err := os.OpenFile(lockFile(), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("netns: lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("netns: lock %s: %w", f.Name(), err)
	}
	return func() { f.Close() }, nil
}

// freeSubnet returns the first /24 of space, trying from the start-th one
// and wrapping, that overlaps none of used.
func freeSubnet(used []netip.Prefix, start int) (netip.Prefix, error) {
	for k := range 256 {
		third := (start + k) % 256
		if third == 0 || third == 255 {
			continue // avoid .0.x and .255.x: easily mistaken for network or broadcast
		}
		a := space.Addr().As4()
		a[2] = byte(third)
		p := netip.PrefixFrom(netip.AddrFrom4(a), 24)
		free := true
		for _, u := range used {
			if u.Overlaps(p) {
				free = false
				break
			}
		}
		if free {
			return p, nil
		}
	}
	return netip.Prefix{}, fmt.Errorf("netns: every /24 of %s overlaps an address or route of this machine", space)
}

// usedPrefixes returns every IPv4 address (with its prefix) and every IPv4
// route of every table of the root namespace, except the default route,
// which overlaps everything and is why a namespace must not have one.
// Addresses are read as well as routes because an address on a link that
// is down has no route.
func usedPrefixes() ([]netip.Prefix, error) {
	var used []netip.Prefix
	out, err := ip("-j", "-4", "route", "show", "table", "all")
	if err != nil {
		return nil, err
	}
	var routes []struct {
		Dst string `json:"dst"`
	}
	if err := json.Unmarshal([]byte(out), &routes); err != nil {
		return nil, fmt.Errorf("netns: read ip route: %w", err)
	}
	for _, r := range routes {
		if r.Dst == "default" {
			continue
		}
		p, err := parsePrefix(r.Dst)
		if err != nil {
			return nil, fmt.Errorf("netns: read ip route: %w", err)
		}
		used = append(used, p)
	}
	out, err = ip("-j", "-4", "addr", "show")
	if err != nil {
		return nil, err
	}
	var links []struct {
		AddrInfo []struct {
			Local     string `json:"local"`
			PrefixLen int    `json:"prefixlen"`
		} `json:"addr_info"`
	}
	if err := json.Unmarshal([]byte(out), &links); err != nil {
		return nil, fmt.Errorf("netns: read ip addr: %w", err)
	}
	for _, l := range links {
		for _, a := range l.AddrInfo {
			addr, err := netip.ParseAddr(a.Local)
			if err != nil {
				return nil, fmt.Errorf("netns: read ip addr: %w", err)
			}
			used = append(used, netip.PrefixFrom(addr, a.PrefixLen).Masked())
		}
	}
	return used, nil
}

// parsePrefix reads a route's destination: an address with or without /len.
func parsePrefix(s string) (netip.Prefix, error) {
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	return netip.PrefixFrom(a, a.BitLen()), nil
}
