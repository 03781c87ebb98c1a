package taskstats

import (
	"errors"
	"fmt"
	"os"

	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/netlink"
	"golang.org/x/sys/unix"
)

var (
	// ErrUnavailable: the kernel has no TASKSTATS generic netlink family
	// (CONFIG_TASKSTATS off) or no generic netlink at all.
	ErrUnavailable = errors.New("taskstats: not available in this kernel")
	// ErrNotPermitted: the caller lacks CAP_NET_ADMIN (run as root), or,
	// for the listener, is not in the initial pid and user namespaces.
	ErrNotPermitted = errors.New("taskstats: not permitted (needs CAP_NET_ADMIN, and the initial pid and user namespaces for the exit listener)")
	// ErrNoTask: no live task or thread group has that id.
	ErrNoTask = errors.New("taskstats: no such task")
)

// Client asks the kernel for the statistics of live tasks. Its methods may
// be called from several goroutines.
type Client struct {
	c      *genetlink.Conn
	family genetlink.Family
}

// Open connects to the TASKSTATS family and checks, with a query about the
// calling process, that the caller may use it.
func Open() (*Client, error) {
	c, family, err := dialFamily()
	if err != nil {
		return nil, err
	}
	cl := &Client{c: c, family: family}
	if _, err := cl.PID(os.Getpid()); err != nil {
		c.Close()
		return nil, err
	}
	return cl, nil
}

// dialFamily opens a generic netlink socket and resolves the family.
func dialFamily() (*genetlink.Conn, genetlink.Family, error) {
	c, err := genetlink.Dial(nil)
	if err != nil {
		return nil, genetlink.Family{}, fmt.Errorf("%w: generic netlink socket: %w", ErrUnavailable, err)
	}
	f, err := c.GetFamily(familyName)
	if err != nil {
		c.Close()
		if errors.Is(err, os.ErrNotExist) {
			return nil, genetlink.Family{}, fmt.Errorf("%w: no %s family: %w", ErrUnavailable, familyName, err)
		}
		return nil, genetlink.Family{}, fmt.Errorf("taskstats: resolving family %s: %w", familyName, mapErrno(err))
	}
	return c, f, nil
}

// mapErrno puts the package's sentinel errors in front of the errnos the
// kernel answers with, keeping the original error in the chain.
func mapErrno(err error) error {
	switch {
	case errors.Is(err, unix.EPERM), errors.Is(err, unix.EACCES):
		return fmt.Errorf("%w: %w", ErrNotPermitted, err)
	case errors.Is(err, unix.ESRCH):
		return fmt.Errorf("%w: %w", ErrNoTask, err)
	}
	return err
}

// PID returns the statistics of one task (thread) by its id. For the main
// thread of a process the id is the process id.
func (c *Client) PID(pid int) (*Stats, error) {
	return c.query(attrPID, KindPID, pid)
}

// TGID returns the statistics of a thread group (process): the kernel sums
// CPU times, elapsed times and context switches over its live threads and
// adds the delay sums of its exited threads. It leaves PID, PPID and Comm
// empty; TGID is the id asked about.
func (c *Client) TGID(tgid int) (*Stats, error) {
	return c.query(attrTGID, KindTGID, tgid)
}

func (c *Client) query(attr uint16, want Kind, id int) (*Stats, error) {
	if id <= 0 {
		return nil, fmt.Errorf("taskstats: invalid %s %d", want, id)
	}
	ae := netlink.NewAttributeEncoder()
	ae.Uint32(attr, uint32(id))
	data, err := ae.Encode()
	if err != nil {
		return nil, err
	}
	msgs, err := c.c.Execute(genetlink.Message{
		Header: genetlink.Header{Command: cmdGet, Version: c.family.Version},
		Data:   data,
	}, c.family.ID, netlink.Request)
	if err != nil {
		return nil, fmt.Errorf("taskstats: %s %d: %w", want, id, mapErrno(err))
	}
	for _, m := range msgs {
		recs, err := parseRecords(m.Data)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			if r.Kind == want && r.ID == id {
				s := r.Stats
				return &s, nil
			}
		}
	}
	return nil, fmt.Errorf("taskstats: %s %d: answer without its statistics", want, id)
}

// Close closes the client's socket.
func (c *Client) Close() error { return c.c.Close() }
