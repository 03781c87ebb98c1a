package blockio

import (
	"context"
	"net"
	"sync"
	"time"
)

// Group is the connections one engine session has dialed: its own, and the
// side connections its library opens (pgx's cancel request, MariaDB's KILL
// QUERY session). Abort breaks every one still open, so a session blocked
// in the kernel is freed whichever of them it waits on.
type Group struct {
	// Timeout is the I/O time-out of the connections (0: DefaultTimeout).
	Timeout time.Duration

	mu       sync.Mutex
	conns    []*Conn
	timedOut *TimeoutError // the last time-out not yet taken
}

// Dial is a DialFunc for the protocol libraries: Dial, remembered in g.
func (g *Group) Dial(ctx context.Context, network, address string) (net.Conn, error) {
	c, err := Dial(ctx, network, address, g.Timeout)
	if err != nil {
		return nil, err
	}
	c.timedOut = g.noteTimeout
	g.mu.Lock()
	defer g.mu.Unlock()
	live := g.conns[:0]
	for _, o := range g.conns {
		if !o.isClosed() {
			live = append(live, o)
		}
	}
	g.conns = append(live, c)
	return c, nil
}

// Abort aborts every connection of the group that is still open.
func (g *Group) Abort() {
	g.mu.Lock()
	conns := append([]*Conn(nil), g.conns...)
	g.mu.Unlock()
	for _, c := range conns {
		c.Abort()
	}
}

func (c *Conn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

func (g *Group) noteTimeout(e *TimeoutError) {
	g.mu.Lock()
	g.timedOut = e
	g.mu.Unlock()
}

// TakeTimeout returns the last I/O time-out of the group's connections
// since the last call (nil: none). For libraries that replace the error of
// a failed read by their own ("invalid connection"), so that the adapter
// can still say why the call failed.
func (g *Group) TakeTimeout() *TimeoutError {
	g.mu.Lock()
	defer g.mu.Unlock()
	e := g.timedOut
	g.timedOut = nil
	return e
}
