package taskstats

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/netlink"
	"golang.org/x/sys/unix"
)

// ErrSyncTimeout: the marker's exit record did not arrive in time (it may
// have been lost to an overrun: see Lost).
var ErrSyncTimeout = errors.New("taskstats: listener did not catch up in time")

// readBuffer is the receive buffer asked for the listener's socket. An
// exit record takes about 1 KiB of payload (2 KiB for the last thread of a
// multi-threaded process) and a few KiB of kernel accounting; 16 MiB holds
// thousands, enough for a burst of short processes between two reads.
const readBuffer = 16 << 20

// requestTimeout bounds the wait for the kernel's answer to a
// registration or deregistration, which normally comes at once.
const requestTimeout = 5 * time.Second

// Listener receives the exit records of every task that ends on any CPU
// while it is registered, and keeps them until Drain.
//
// Records arrive asynchronously: the kernel queues a task's record on the
// listener's socket while the task exits, and a goroutine moves it to the
// buffer. Sync waits until that goroutine has caught up.
type Listener struct {
	nc     *netlink.Conn
	family genetlink.Family
	cpus   string // the registered cpulist
	portid uint32
	marker string // path of the program Sync runs; "" if none was found
	mcomm  string // the marker's name as the kernel records it
	self   int    // our pid: the marker's parent

	seq atomic.Uint32 // sequence numbers of our requests

	mu      sync.Mutex
	buf     []Exit
	markers map[int]chan struct{} // marker pid -> closed when its record arrives
	acks    map[uint32]chan error // request sequence -> the kernel's answer
	closing bool
	err     error // why the receive loop stopped

	overruns  atomic.Uint64 // ENOBUFS reports: one or more records lost each
	undecoded atomic.Uint64 // records that arrived but could not be decoded
	done      chan struct{} // closed when the receive loop returns
	closeOnce sync.Once
	closeErr  error
}

// Listen opens a netlink socket of its own, registers it for the exit
// records of every possible CPU (TASKSTATS_CMD_ATTR_REGISTER_CPUMASK with
// the list in /sys/devices/system/cpu/possible) and starts collecting.
func Listen() (*Listener, error) { return listen(readBuffer) }

func listen(rcvbuf int) (*Listener, error) {
	cpus, err := possibleCPUs()
	if err != nil {
		return nil, err
	}
	nc, err := netlink.Dial(unix.NETLINK_GENERIC, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: generic netlink socket: %w", ErrUnavailable, err)
	}
	family, err := genetlink.NewConn(nc).GetFamily(familyName)
	if err != nil {
		nc.Close()
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: no %s family: %w", ErrUnavailable, familyName, err)
		}
		return nil, fmt.Errorf("taskstats: resolving family %s: %w", familyName, mapErrno(err))
	}
	if err := setReadBuffer(nc, rcvbuf); err != nil {
		nc.Close()
		return nil, fmt.Errorf("taskstats: listener receive buffer: %w", err)
	}
	marker, err := exec.LookPath("true")
	if err != nil {
		if _, serr := os.Stat("/bin/true"); serr == nil {
			marker = "/bin/true"
		} else {
			marker = "" // Sync will say so
		}
	}
	l := &Listener{
		nc:      nc,
		family:  family,
		cpus:    cpus,
		portid:  nc.PID(),
		marker:  marker,
		mcomm:   taskComm(marker),
		self:    os.Getpid(),
		markers: map[int]chan struct{}{},
		acks:    map[uint32]chan error{},
		done:    make(chan struct{}),
	}
	go l.loop()
	if err := l.request(attrRegisterCPUMask, true); err != nil {
		l.stop()
		if errors.Is(err, unix.EINVAL) {
			err = fmt.Errorf("%w (the kernel refuses listeners outside the initial pid and user namespaces, or the CPU list %q)", err, cpus)
		}
		return nil, fmt.Errorf("taskstats: registering CPUs %s: %w", cpus, mapErrno(err))
	}
	return l, nil
}

// setReadBuffer sets the socket's receive buffer to n bytes, past the
// net.core.rmem_max limit when the caller may (SO_RCVBUFFORCE needs
// CAP_NET_ADMIN, which taskstats needs anyway), else up to that limit.
func setReadBuffer(nc *netlink.Conn, n int) error {
	rc, err := nc.SyscallConn()
	if err == nil {
		var serr error
		err = rc.Control(func(fd uintptr) {
			serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVBUFFORCE, n)
		})
		if err == nil && serr == nil {
			return nil
		}
	}
	return nc.SetReadBuffer(n)
}

// request sends a (de)registration of l.cpus and, if wait, waits for the
// kernel's acknowledgement, which the receive loop routes back by sequence
// number (the socket also carries exit records, so the answer cannot simply
// be read after sending).
func (l *Listener) request(attr uint16, wait bool) error {
	ae := netlink.NewAttributeEncoder()
	ae.String(attr, l.cpus)
	data, err := ae.Encode()
	if err != nil {
		return err
	}
	body, err := genetlink.Message{
		Header: genetlink.Header{Command: cmdGet, Version: l.family.Version},
		Data:   data,
	}.MarshalBinary()
	if err != nil {
		return err
	}
	seq := l.seq.Add(1)
	flags := netlink.Request
	ch := make(chan error, 1)
	if wait {
		flags |= netlink.Acknowledge
		l.mu.Lock()
		l.acks[seq] = ch
		l.mu.Unlock()
		defer func() {
			l.mu.Lock()
			delete(l.acks, seq)
			l.mu.Unlock()
		}()
	}
	if _, err := l.nc.Send(netlink.Message{
		Header: netlink.Header{Type: netlink.HeaderType(l.family.ID), Flags: flags, Sequence: seq},
		Data:   body,
	}); err != nil {
		return err
	}
	if !wait {
		return nil
	}
	timer := time.NewTimer(requestTimeout)
	defer timer.Stop()
	select {
	case err := <-ch:
		return err
	case <-l.done:
		return l.loopErr()
	case <-timer.C:
		return fmt.Errorf("taskstats: no answer from the kernel in %v", requestTimeout)
	}
}

// loop receives until the socket is closed.
func (l *Listener) loop() {
	defer close(l.done)
	for {
		msgs, err := l.nc.Receive()
		if err != nil {
			if l.isClosing() {
				return
			}
			var oe *netlink.OpError
			switch {
			case errors.As(err, &oe) && oe.Sequence != 0 && l.answer(oe.Sequence, err):
				// the kernel refused one of our requests
			case errors.Is(err, unix.ENOBUFS):
				// The socket overran: the kernel dropped one or more
				// records (counted exactly in /proc/net/netlink, see
				// Lost). The socket stays usable.
				l.overruns.Add(1)
			case oe != nil && oe.Sequence != 0:
				// a late refusal of a request nobody waits for
			default:
				l.mu.Lock()
				l.err = fmt.Errorf("taskstats: listener stopped: %w", err)
				l.mu.Unlock()
				return
			}
			continue
		}
		for _, m := range msgs {
			l.handle(m)
		}
	}
}

// answer hands the kernel's answer to request seq to its waiter, and says
// whether there was one.
func (l *Listener) answer(seq uint32, err error) bool {
	l.mu.Lock()
	ch, ok := l.acks[seq]
	l.mu.Unlock()
	if ok {
		ch <- err // buffered, and each request is answered once
	}
	return ok
}

func (l *Listener) handle(m netlink.Message) {
	switch m.Header.Type {
	case netlink.Error: // an acknowledgement (errors come back from Receive)
		l.answer(m.Header.Sequence, nil)
		return
	case netlink.HeaderType(l.family.ID):
	default:
		return
	}
	var gm genetlink.Message
	if err := gm.UnmarshalBinary(m.Data); err != nil {
		l.undecoded.Add(1)
		return
	}
	if gm.Header.Command != cmdNew {
		return
	}
	recs, err := parseRecords(gm.Data)
	if err != nil || len(recs) == 0 {
		l.undecoded.Add(1)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range recs {
		if r.Kind == KindPID && r.Stats.PPID == l.self && r.Stats.Comm == l.mcomm {
			if ch, ok := l.markers[r.ID]; ok {
				// Sync's marker: its own artefact, not an exit to report.
				close(ch)
				delete(l.markers, r.ID)
				continue
			}
		}
		l.buf = append(l.buf, r)
	}
}

// taskComm is the name the kernel gives a task that executed path: its
// base name cut to TASK_COMM_LEN-1 bytes.
func taskComm(path string) string {
	c := filepath.Base(path)
	if len(c) > 15 {
		c = c[:15]
	}
	return c
}

// Drain returns the exit records received since the last Drain, in the
// order they arrived, and forgets them. Call Sync first to be sure that
// every exit that happened before has been received.
func (l *Listener) Drain() []Exit {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buf
	l.buf = nil
	return b
}

// Sync returns when every task that exited before Sync was called has had
// its record received (or lost: see Lost), so that a following Drain
// holds them all.
//
// It starts a marker process ("true", found in PATH), reaps it and waits
// until the marker's own exit record arrives. That is sound because the
// kernel queues a task's exit record synchronously in the exiting task's
// do_exit, before the task can be reaped and before its /proc entry goes,
// and because one socket's queue is first in, first out: whatever exited
// before Sync was called (in particular a process that a snapshot no
// longer found) was queued before the marker, which was forked after. The
// marker's record is not reported by Drain.
//
// After an overrun the kernel drops every record until the listener has
// emptied its queue, the marker's included; when Lost grows while Sync
// waits, it starts another marker rather than wait for one that will not
// come.
func (l *Listener) Sync(timeout time.Duration) error {
	if l.marker == "" {
		return errors.New("taskstats: Sync needs the program \"true\" in PATH as its marker")
	}
	deadline := time.Now().Add(timeout)
	for {
		lost := l.Lost()
		arrived, err := l.runMarker()
		if err != nil {
			return err
		}
		for l.Lost() == lost {
			wait := min(syncPoll, time.Until(deadline))
			if wait <= 0 {
				return fmt.Errorf("%w (%v)", ErrSyncTimeout, timeout)
			}
			select {
			case <-arrived:
				return nil
			case <-l.done:
				return l.loopErr()
			case <-time.After(wait):
			}
		}
		select {
		case <-arrived:
			return nil
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w (%v)", ErrSyncTimeout, timeout)
		}
	}
}

// syncPoll is how often Sync looks at Lost while its marker's record has
// not arrived (it normally arrives within microseconds).
const syncPoll = 10 * time.Millisecond

// runMarker starts and reaps one marker process and returns the channel
// the receive loop closes when the marker's record arrives.
func (l *Listener) runMarker() (<-chan struct{}, error) {
	cmd := exec.Command(l.marker)
	// Hold the lock from before the fork until the marker is known, so the
	// receive loop cannot take its record for an ordinary exit.
	l.mu.Lock()
	if err := l.stoppedLocked(); err != nil {
		l.mu.Unlock()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		l.mu.Unlock()
		return nil, fmt.Errorf("taskstats: starting the Sync marker: %w", err)
	}
	arrived := make(chan struct{})
	l.markers[cmd.Process.Pid] = arrived
	l.mu.Unlock()
	// Its exit status does not matter: it exited, so its record is queued.
	_ = cmd.Wait()
	return arrived, nil
}

// Lost is how many exit records were lost since Listen: dropped by the
// kernel because the socket's receive buffer was full (the socket's Drops
// count in /proc/net/netlink, or the number of ENOBUFS reports if that
// cannot be read, each standing for at least one), plus records that
// arrived but could not be decoded. Compare it before and after a query
// execution to know whether that execution's exits are complete.
func (l *Listener) Lost() uint64 {
	n := l.overruns.Load()
	if d, ok := socketDrops(l.portid); ok && d > n {
		n = d
	}
	return n + l.undecoded.Load()
}

// Err says why the listener stopped receiving, or nil while it runs.
func (l *Listener) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Close deregisters the listener from every CPU it registered
// (TASKSTATS_CMD_ATTR_DEREGISTER_CPUMASK), closes its socket and stops its
// goroutine. Deregistering matters: the kernel only forgets a listener it
// was not told about when a send to it fails, and a later socket that
// happens to get the same port id would receive the records meanwhile.
func (l *Listener) Close() error {
	l.closeOnce.Do(func() {
		running := l.Err() == nil
		derr := l.request(attrDeregisterCPUMask, running)
		if derr != nil {
			derr = fmt.Errorf("taskstats: deregistering CPUs %s: %w", l.cpus, derr)
		}
		cerr := l.stop()
		l.closeErr = errors.Join(derr, cerr)
	})
	return l.closeErr
}

// stop closes the socket and waits for the receive loop to return.
func (l *Listener) stop() error {
	l.mu.Lock()
	l.closing = true
	l.mu.Unlock()
	err := l.nc.Close()
	<-l.done
	return err
}

func (l *Listener) isClosing() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closing
}

// stoppedLocked returns why the listener cannot serve, or nil.
func (l *Listener) stoppedLocked() error {
	if l.closing {
		return errors.New("taskstats: listener closed")
	}
	return l.err
}

// loopErr is the error to report once the receive loop has returned.
func (l *Listener) loopErr() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.stoppedLocked(); err != nil {
		return err
	}
	return errors.New("taskstats: listener stopped")
}
