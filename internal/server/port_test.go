package server

import (
	"net"
	"strconv"
	"testing"
)

// TestFreePortOutsideEphemeralRange: the ports private servers get (and
// keep across a stop) lie outside the kernel's ephemeral range, where
// any outgoing connection could hold one when the server starts again;
// each is free when given.
func TestFreePortOutsideEphemeralRange(t *testing.T) {
	lo, hi := ephemeralRange()
	for range 50 {
		p, err := FreePort()
		if err != nil {
			t.Fatal(err)
		}
		if p >= lo && p <= hi {
			t.Fatalf("FreePort gave %d, inside the ephemeral range %d-%d", p, lo, hi)
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			t.Fatalf("port %d is not free: %v", p, err)
		}
		l.Close()
	}
}
