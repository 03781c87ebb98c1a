package netns

import (
	"net/netip"
	"testing"
)

func TestNamesFitAndReadBack(t *testing.T) {
	const maxPID = 1 << 22 // PID_MAX_LIMIT on 64-bit Linux
	b := newBase("abcde", maxPID, 35)
	for _, name := range []string{b.bridge(), b.namespace(maxNodes), b.veth(maxNodes)} {
		if len(name) > 15 {
			t.Errorf("%s has %d characters; an interface name holds 15", name, len(name))
		}
		if pid, ok := ownerPID("abcde", name); !ok || pid != maxPID {
			t.Errorf("ownerPID(%s) = %d, %v; want %d, true", name, pid, ok, maxPID)
		}
	}
	if a, b := newBase("dg", 42, 1), newBase("dg", 42, 2); a == b {
		t.Errorf("two Nets of one process share the base %s", a)
	}
}

func TestOwnerPIDIgnoresOtherNames(t *testing.T) {
	for _, name := range []string{
		"eth0", "lo", "dg", "dgbr", "docker0",
		"dg0000ab",   // no role
		"dg0000abx1", // unknown role
		"dg0000abn",  // no number
		"dg0000abn0", // namespaces count from 1
		"dg0000abn01",
		"dg00-0abbr", // not base 36
		"xdg0000abbr",
		"dg0000abbrx",
	} {
		if pid, ok := ownerPID("dg", name); ok {
			t.Errorf("ownerPID(dg, %s) = %d, true; want false: not a name of this package", name, pid)
		}
	}
	// pid digits "000ab" (10*36 + 11), counter "a", role "br".
	if pid, ok := ownerPID("dg", "dg000ababr"); !ok || pid != 10*36+11 {
		t.Errorf("ownerPID(dg, dg000ababr) = %d, %v; want %d", pid, ok, 10*36+11)
	}
}

func TestFreeSubnet(t *testing.T) {
	p := netip.MustParsePrefix
	for _, tc := range []struct {
		name  string
		used  []netip.Prefix
		start int
		want  string
	}{
		{"nothing used", nil, 7, "10.250.7.0/24"},
		{"start taken", []netip.Prefix{p("10.250.7.0/24")}, 7, "10.250.8.0/24"},
		{"one address inside", []netip.Prefix{p("10.250.7.9/32")}, 7, "10.250.8.0/24"},
		{"a wider route", []netip.Prefix{p("10.250.0.0/20")}, 1, "10.250.16.0/24"},
		{"wraps, skipping .255 and .0", []netip.Prefix{p("10.250.254.0/24")}, 254, "10.250.1.0/24"},
		{"other networks do not count", []netip.Prefix{p("192.168.0.0/16"), p("10.251.0.0/16")}, 3, "10.250.3.0/24"},
	} {
		got, err := freeSubnet(tc.used, tc.start)
		if err != nil || got.String() != tc.want {
			t.Errorf("%s: freeSubnet = %v, %v; want %s", tc.name, got, err, tc.want)
		}
	}
	if got, err := freeSubnet([]netip.Prefix{p("10.0.0.0/8")}, 1); err == nil {
		t.Errorf("freeSubnet with 10.0.0.0/8 used = %v; want an error", got)
	}
}
