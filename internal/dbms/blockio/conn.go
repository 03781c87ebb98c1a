// Package blockio is the client I/O path of dbgauge's server adapters: a
// net.Conn on a socket in blocking mode, handed to the protocol libraries
// (pgx's and go-sql-driver/mysql's DialFunc, the Firebird driver's dial hook)
// in place of Go's own.
//
// Why: a load client spends its life in round trips. Through Go's network
// poller every round trip parks the goroutine, wakes it from epoll on another
// thread and hands it back through the scheduler (futex wake-ups, idle Ps
// spinning in nanosleep). Measured with the same pgconn loop on PostgreSQL
// over loopback, that hand-off halved the rate against pgbench's thread
// blocked in its own poll. A blocking read keeps the thread in the kernel
// until the reply is there, as pgbench's and sysbench's threads do: one
// read(2) and one write(2) per round trip and nothing else. The driver runs
// each load thread on a goroutine locked to its OS thread with enough Ps that
// a thread returning from a read finds its P idle.
//
// What blocking costs, and how it is paid back:
//   - A context cannot interrupt a blocked read. Abort (shutdown(2) of the
//     socket, from any goroutine) can: the read returns at once with an
//     error and the session is lost. SetDeadline keeps the net.Conn contract
//     the libraries rely on for cancellation: a deadline that has passed
//     aborts, a future one arms a timer that will.
//   - A server that stops answering (SIGSTOP, a partition) would hold the
//     thread for ever: SO_RCVTIMEO and SO_SNDTIMEO end a read or write that
//     waits longer than the Conn's I/O time-out with a timeout error.
package blockio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// DefaultTimeout is the I/O time-out when the caller names none: long
// enough for any statement of a load (a TPC-B transaction waits on locks for
// seconds at worst), short enough that a stopped server is reported within a
// minute.
const DefaultTimeout = 30 * time.Second

// TimeoutError is what a read or write that waited past the I/O time-out
// returns (wrapped in a *net.OpError): a net.Error whose Timeout() is true,
// and errors.Is(err, os.ErrDeadlineExceeded), as for a polled socket.
type TimeoutError struct{ After time.Duration }

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("no answer from the server within the I/O time-out of %v (io_timeout in the URL)", e.After)
}
func (e *TimeoutError) Timeout() bool        { return true }
func (e *TimeoutError) Temporary() bool      { return true }
func (e *TimeoutError) Is(target error) bool { return target == os.ErrDeadlineExceeded }

// errAborted is what calls return after Abort.
var errAborted = errors.New("connection aborted")

// Conn is a connected socket in blocking mode. Read and Write are meant for
// one goroutine at a time (as every protocol library uses them); Abort,
// Close and SetDeadline may be called from any goroutine.
type Conn struct {
	f             *os.File // blocking fd: os.File keeps it open while a Read is in it
	nc            net.Conn // instead of f, a socket on Go's poller (experiment_netpoll.go)
	local, remote net.Addr
	timeout       time.Duration
	// timedOut, if set, is told of every time-out (Group counts them).
	timedOut func(*TimeoutError)

	mu      sync.Mutex
	aborted bool
	closed  bool
	timer   *time.Timer // the pending deadline, if any
}

var _ net.Conn = (*Conn)(nil)

// Dial connects to address over network ("tcp" or "unix") with Go's dialer
// (so ctx bounds the connect) and returns the connection as a blocking Conn
// whose reads and writes fail after timeout without progress (0: the
// DefaultTimeout).
func Dial(ctx context.Context, network, address string, timeout time.Duration) (*Conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	if experimentPs > 0 {
		return polled(nc, timeout), nil
	}
	defer nc.Close()
	return fromNet(nc, timeout)
}

// fromNet takes nc's socket out of the poller: a duplicate of its fd, in
// blocking mode, with the time-outs set. nc itself is closed by the caller.
func fromNet(nc net.Conn, timeout time.Duration) (*Conn, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nil, fmt.Errorf("blockio: %T has no file descriptor", nc)
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd := -1
	var serr error
	if err := rc.Control(func(s uintptr) { fd, serr = unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0) }); err != nil {
		return nil, err
	}
	if serr != nil {
		return nil, fmt.Errorf("blockio: dup socket: %w", serr)
	}
	tv := unix.NsecToTimeval(timeout.Nanoseconds())
	for _, step := range []func() error{
		func() error { return unix.SetNonblock(fd, false) },
		func() error { return unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv) },
		func() error { return unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_SNDTIMEO, &tv) },
	} {
		if err := step(); err != nil {
			unix.Close(fd)
			return nil, fmt.Errorf("blockio: set up socket: %w", err)
		}
	}
	// os.NewFile sees a blocking fd and leaves it out of the poller: its
	// Read and Write are plain read(2) and write(2) (EINTR retried).
	return &Conn{f: os.NewFile(uintptr(fd), "socket"), local: nc.LocalAddr(), remote: nc.RemoteAddr(), timeout: timeout}, nil
}

// Timeout is the I/O time-out of the connection.
func (c *Conn) Timeout() time.Duration { return c.timeout }

// Read reads what the socket has, waiting in the kernel until something
// arrives, the I/O time-out passes (a *TimeoutError) or the Conn is aborted.
func (c *Conn) Read(b []byte) (int, error) {
	if c.nc != nil {
		n, err := c.nc.Read(b)
		if err != nil {
			return n, c.ioError("read", err)
		}
		return n, nil
	}
	n, err := c.f.Read(b)
	if err != nil {
		return n, c.ioError("read", err)
	}
	return n, nil
}

// Write writes all of b unless the I/O time-out passes or the Conn is
// aborted.
func (c *Conn) Write(b []byte) (int, error) {
	if c.nc != nil {
		n, err := c.nc.Write(b)
		if err != nil {
			return n, c.ioError("write", err)
		}
		return n, nil
	}
	n, err := c.f.Write(b)
	if err != nil {
		return n, c.ioError("write", err)
	}
	return n, nil
}

// ioError names what a failed read or write means. EOF stays EOF (the
// protocol libraries test for it); after Abort every error is errAborted.
func (c *Conn) ioError(op string, err error) error {
	if err == io.EOF {
		return err
	}
	c.mu.Lock()
	aborted := c.aborted
	c.mu.Unlock()
	switch {
	case aborted:
		err = errAborted
	case errors.Is(err, syscall.EAGAIN):
		te := &TimeoutError{After: c.timeout}
		if c.timedOut != nil {
			c.timedOut(te)
		}
		err = te
	case errors.Is(err, os.ErrClosed):
		err = net.ErrClosed
	default:
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // "read socket: ..." says less than the OpError below
		}
	}
	return &net.OpError{Op: op, Net: c.remote.Network(), Source: c.local, Addr: c.remote, Err: err}
}

// Abort breaks the connection: a Read or Write blocked in it, now or later,
// returns at once with an error. It is how a context's end reaches a thread
// in the kernel; the session cannot be used afterwards. Safe from any
// goroutine, any number of times.
func (c *Conn) Abort() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.aborted {
		return
	}
	c.aborted = true
	if c.nc != nil {
		c.nc.SetDeadline(time.Unix(1, 0))
		return
	}
	if rc, err := c.f.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) { unix.Shutdown(int(fd), unix.SHUT_RDWR) })
	}
}

// Close aborts and releases the socket (the fd closes when no Read or Write
// is in it any more).
func (c *Conn) Close() error {
	c.Abort()
	c.mu.Lock()
	c.closed = true
	if c.timer != nil {
		c.timer.Stop()
	}
	c.mu.Unlock()
	if c.nc != nil {
		return c.nc.Close()
	}
	return c.f.Close()
}

func (c *Conn) LocalAddr() net.Addr  { return c.local }
func (c *Conn) RemoteAddr() net.Addr { return c.remote }

// SetDeadline keeps the net.Conn contract the protocol libraries use to
// cancel a call: a deadline at or before now aborts the connection, a
// future one arms a timer that aborts it then, the zero time disarms. A
// blocking socket cannot resume after a deadline as a polled one can, but
// these libraries drop the connection after one anyway.
func (c *Conn) SetDeadline(t time.Time) error {
	if c.nc != nil {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.aborted {
			return nil
		}
		return c.nc.SetDeadline(t)
	}
	d := time.Until(t)
	c.mu.Lock()
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	if !t.IsZero() && d > 0 {
		c.timer = time.AfterFunc(d, c.Abort)
	}
	c.mu.Unlock()
	if !t.IsZero() && d <= 0 {
		c.Abort()
	}
	return nil
}

// SetReadDeadline and SetWriteDeadline are SetDeadline: the abort ends both
// directions.
func (c *Conn) SetReadDeadline(t time.Time) error  { return c.SetDeadline(t) }
func (c *Conn) SetWriteDeadline(t time.Time) error { return c.SetDeadline(t) }
