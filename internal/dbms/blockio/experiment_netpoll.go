package blockio

import (
	"net"
	"os"
	"strconv"
	"time"
)

// EXPERIMENT (issue 31), not wired into any flag: the environment variable
// DBGAUGE_EXPERIMENT_NETPOLL=P puts every session's sockets back on Go's
// network poller (the non-blocking path pgx takes without this package) and
// makes the load driver run its sessions as plain goroutines on P Ps, not
// locked to OS threads (internal/driver/iopath.go asks ExperimentPs). It
// exists to measure that candidate against the blocking path at many
// sessions (docs/client-cost.md, "Many sessions: the candidates measured").
// A polled Conn is aborted by a deadline in the past; it does not enforce
// the I/O time-out. This is the one place the variable is read.
var experimentPs = func() int {
	p, err := strconv.Atoi(os.Getenv("DBGAUGE_EXPERIMENT_NETPOLL"))
	if err != nil || p < 1 {
		return 0
	}
	return p
}()

// ExperimentPs is the number of Ps DBGAUGE_EXPERIMENT_NETPOLL asks for, 0
// when the experiment is off.
func ExperimentPs() int { return experimentPs }

// polled returns nc as a Conn that keeps it on the poller (the experiment).
func polled(nc net.Conn, timeout time.Duration) *Conn {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Conn{nc: nc, local: nc.LocalAddr(), remote: nc.RemoteAddr(), timeout: timeout}
}
