package blockio

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// listen serves one connection on network with serve and returns the
// address to dial.
func listen(t *testing.T, network string, serve func(net.Conn)) string {
	t.Helper()
	addr := "127.0.0.1:0"
	if network == "unix" {
		addr = filepath.Join(t.TempDir(), "s")
	}
	l, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		serve(c)
	}()
	return l.Addr().String()
}

func TestEchoAndEOF(t *testing.T) {
	for _, network := range []string{"tcp", "unix"} {
		addr := listen(t, network, func(c net.Conn) {
			b := make([]byte, 5)
			io.ReadFull(c, b)
			c.Write(b)
		})
		c, err := Dial(context.Background(), network, addr, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Write([]byte("hello")); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 5)
		if _, err := io.ReadFull(c, b); err != nil || string(b) != "hello" {
			t.Fatalf("%s: read %q, %v", network, b, err)
		}
		if n, err := c.Read(b); n != 0 || err != io.EOF {
			t.Errorf("%s: after the server closed: %d, %v; want io.EOF", network, n, err)
		}
		c.Close()
	}
}

// TestTimeout: a server that never answers fails the read after the I/O
// time-out, with an error that says so and that the libraries take for a
// time-out.
func TestTimeout(t *testing.T) {
	addr := listen(t, "tcp", func(c net.Conn) { time.Sleep(time.Minute) })
	c, err := Dial(context.Background(), "tcp", addr, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Read(make([]byte, 1))
	var ne net.Error
	var te *TimeoutError
	if !errors.As(err, &ne) || !ne.Timeout() || !errors.Is(err, os.ErrDeadlineExceeded) || !errors.As(err, &te) || te.After != 200*time.Millisecond {
		t.Errorf("read error %v: want a *TimeoutError after 200ms", err)
	}
	var g Group
	g.Timeout = 200 * time.Millisecond
	gc, err := g.Dial(context.Background(), "tcp", listen(t, "tcp", func(c net.Conn) { time.Sleep(time.Minute) }))
	if err != nil {
		t.Fatal(err)
	}
	defer gc.Close()
	gc.Read(make([]byte, 1))
	if te := g.TakeTimeout(); te == nil || g.TakeTimeout() != nil {
		t.Errorf("group: time-out taken %v, then again: want once", te)
	}
	// A connection dialed before Forget (the one a library still closes
	// in the background after the session was replaced) is no longer
	// the session's: its time-out is not reported.
	g.Forget()
	gc.Read(make([]byte, 1))
	if te := g.TakeTimeout(); te != nil {
		t.Errorf("group: a time-out of a connection dialed before Forget taken: %v", te)
	}
}

// TestAbort: a read blocked in the kernel returns when another goroutine
// aborts the connection, or when a deadline set from another goroutine
// passes (how pgx and the MySQL driver cancel a call).
func TestAbort(t *testing.T) {
	for _, how := range []string{"abort", "past deadline", "future deadline", "group"} {
		addr := listen(t, "tcp", func(c net.Conn) { time.Sleep(time.Minute) })
		var g Group
		nc, err := g.Dial(context.Background(), "tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c := nc.(*Conn)
		done := make(chan error, 1)
		go func() {
			_, err := c.Read(make([]byte, 1))
			done <- err
		}()
		time.Sleep(50 * time.Millisecond)
		switch how {
		case "abort":
			c.Abort()
		case "past deadline":
			c.SetDeadline(time.Now().Add(-time.Second))
		case "future deadline":
			c.SetDeadline(time.Now().Add(100 * time.Millisecond))
		case "group":
			g.Abort()
		}
		select {
		case err := <-done:
			if err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
				t.Errorf("%s: read error %v, want an abort", how, err)
			}
		case <-time.After(20 * time.Second): // the time-out is 30 s: only the abort explains a return
			t.Fatalf("%s: the read did not return", how)
		}
		c.Close()
	}
}

// TestDeadlineDisarmed: a deadline cleared before it passes leaves the
// connection working.
func TestDeadlineDisarmed(t *testing.T) {
	addr := listen(t, "tcp", func(c net.Conn) {
		b := make([]byte, 1)
		io.ReadFull(c, b)
		c.Write(b)
	})
	c, err := Dial(context.Background(), "tcp", addr, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Timeout() != DefaultTimeout {
		t.Errorf("timeout %v, want the default %v", c.Timeout(), DefaultTimeout)
	}
	c.SetDeadline(time.Now().Add(50 * time.Millisecond))
	c.SetDeadline(time.Time{})
	time.Sleep(100 * time.Millisecond)
	if _, err := c.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Read(make([]byte, 1)); err != nil {
		t.Errorf("read after a disarmed deadline: %v", err)
	}
}
