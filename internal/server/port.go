package server

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// lowestPort is the lowest port FreePort picks: above the well-known and
// the commonly registered services' ports.
const lowestPort = 10000

// FreePort picks a free loopback TCP port for a private server, outside
// the kernel's range of ephemeral ports (net.ipv4.ip_local_port_range).
// Any program's outgoing connection may take an ephemeral port at any
// moment, and a server's port is kept across a stop (a cluster's nodes,
// an instance started again): a port from that range was found taken
// when a stopped Galera cluster started again on a busy machine ("bind:
// Address already in use"). Only a program that listens on a port it
// chose can take one of these. The port is free now: bound and released.
func FreePort() (int, error) {
	lo, hi := ephemeralRange()
	var outside []int // the ranges outside, as pairs of first and last
	if lo-1 >= lowestPort {
		outside = append(outside, lowestPort, lo-1)
	}
	if hi+1 <= 65535 {
		outside = append(outside, max(hi+1, lowestPort), 65535)
	}
	for range 200 {
		if len(outside) == 0 {
			break
		}
		i := 2 * rand.IntN(len(outside)/2)
		p := outside[i] + rand.IntN(outside[i+1]-outside[i]+1)
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			continue // taken: another
		}
		l.Close()
		return p, nil
	}
	// No room outside the range (a machine that made every port
	// ephemeral): the kernel's choice.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// ephemeralRange is the kernel's range of ports for outgoing
// connections (Linux's default when it cannot be read).
func ephemeralRange() (lo, hi int) {
	lo, hi = 32768, 60999
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return lo, hi
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return lo, hi
	}
	a, err1 := strconv.Atoi(f[0])
	z, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || a > z {
		return lo, hi
	}
	return a, z
}
