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
	// gen counts Forget calls: a connection dialed before the last one
	// no longer reports its time-outs.
	gen int
}

// Dial is a DialFunc for the protocol libraries: Dial, remembered in g.
func (g *Group) Dial(ctx context.Context, network, address string) (net.Conn, error) {
	c, err := Dial(ctx, network, address, g.Timeout)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	gen := g.gen
	c.timedOut = func(e *TimeoutError) { g.noteTimeout(gen, e) }
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

func (g *Group) noteTimeout(gen int, e *TimeoutError) {
	g.mu.Lock()
	if gen == g.gen {
		g.timedOut = e
	}
	g.mu.Unlock()
}

// Forget drops the time-out not yet taken and ignores those the
// connections dialed so far report later: for a session that replaces
// its connection, whose library may still be closing the old one in the
// background (pgx sends a cancel request to the server on a connection
// of its own, whose read may run out of the time-out seconds later).
func (g *Group) Forget() {
	g.mu.Lock()
	g.gen++
	g.timedOut = nil
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
