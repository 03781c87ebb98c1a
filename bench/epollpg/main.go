// Command epollpg is an EXPERIMENT for issue 31 (many sessions per load
// thread), not part of dbgauge and not wired into any of its commands: the
// smallest client that drives many PostgreSQL sessions the way pgbench does
// with -j smaller than -c, to measure that candidate's client cost against
// pgbench and against dbgauge's present path before building it into the
// driver (docs/client-cost.md, "Many sessions: the candidates measured").
//
// It runs pgbench's select-only prepared transaction (SELECT abalance FROM
// pgbench_accounts WHERE aid = $1, aid uniform over the scale) on -c
// sessions from -j OS threads. Each thread owns its share of the sessions'
// sockets (non-blocking, taken from pgx after connect and prepare) and one
// epoll set: it sends each session's Bind/Execute/Sync, then loops on one
// epoll_wait per batch of ready replies, reading each ready socket once and
// sending that session's next transaction when its ReadyForQuery is in.
// No scheduler hand-off per round trip, no goroutine per session. Each
// transaction's residence time is taken (two clock reads) and counted in a
// power-of-two histogram, a stand-in for the driver's bookkeeping.
//
// Output, one line: tps, transactions, the seconds measured, and the
// process's CPU (user+sys) in microseconds per transaction over the same
// window (getrusage), as dbgauge's results.json counts client_cpu_s.
//
// Usage: epollpg -url URL -c SESSIONS -j THREADS -T SECONDS [-scale 10]
package main

import (
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"golang.org/x/sys/unix"
)

func main() {
	url := flag.String("url", "", "URL of the server holding the pgbench tables")
	clients := flag.Int("c", 64, "sessions")
	threads := flag.Int("j", 2, "OS threads driving them")
	secs := flag.Int("T", 8, "seconds to run")
	scale := flag.Int("scale", 10, "pgbench scale (aid is uniform over 100000*scale)")
	flag.Parse()
	if *url == "" || *clients < 1 || *threads < 1 || *threads > *clients {
		fmt.Fprintln(os.Stderr, "epollpg: give -url, and 1 <= -j <= -c")
		os.Exit(2)
	}
	if err := run(*url, *clients, *threads, time.Duration(*secs)*time.Second, int64(*scale)*100000); err != nil {
		fmt.Fprintln(os.Stderr, "epollpg:", err)
		os.Exit(1)
	}
}

func run(url string, clients, threads int, d time.Duration, accounts int64) error {
	sess, err := connectAll(url, clients)
	if err != nil {
		return err
	}
	// As the driver does (internal/driver/iopath.go): a P per thread and
	// two spare, so a thread back from epoll_wait finds its P idle.
	runtime.GOMAXPROCS(threads + 2)
	var stop atomic.Bool
	counts := make([]int64, threads)
	errs := make([]error, threads)
	var wg sync.WaitGroup
	var ru0, ru1 unix.Rusage
	unix.Getrusage(unix.RUSAGE_SELF, &ru0)
	start := time.Now()
	for t := 0; t < threads; t++ {
		lo, hi := t*clients/threads, (t+1)*clients/threads
		wg.Go(func() { counts[t], errs[t] = drive(sess[lo:hi], accounts, uint64(t), &stop) })
	}
	time.Sleep(d)
	stop.Store(true)
	wg.Wait()
	elapsed := time.Since(start)
	unix.Getrusage(unix.RUSAGE_SELF, &ru1)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	var n int64
	for _, c := range counts {
		n += c
	}
	cpu := time.Duration(ru1.Utime.Nano() - ru0.Utime.Nano() + ru1.Stime.Nano() - ru0.Stime.Nano())
	fmt.Printf("tps %.1f transactions %d seconds %.3f cpu_us_per_tx %.2f\n",
		float64(n)/elapsed.Seconds(), n, elapsed.Seconds(), float64(cpu.Microseconds())/float64(max(n, 1)))
	return nil
}

// session is one connection's socket and its state machine: a transaction
// in flight, its reply accumulating in in.
type session struct {
	fd   int
	out  []byte
	in   []byte
	sent time.Time // when the transaction in flight was sent
}

const selectSQL = "SELECT abalance FROM pgbench_accounts WHERE aid = $1"

// connectAll opens the sessions (16 at a time), prepares the statement on
// each and takes their sockets from pgx.
func connectAll(url string, n int) ([]*session, error) {
	sess := make([]*session, n)
	errs := make([]error, n)
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i := range sess {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			sess[i], errs[i] = connect(url)
		})
	}
	wg.Wait()
	return sess, errors.Join(errs...)
}

func connect(url string) (*session, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pc, err := pgconn.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	if _, err := pc.Prepare(ctx, "s", selectSQL, nil); err != nil {
		pc.Close(ctx)
		return nil, err
	}
	hc, err := pc.Hijack()
	if err != nil {
		return nil, err
	}
	defer hc.Conn.Close() // the duplicate below keeps the socket open
	sc, ok := hc.Conn.(syscall.Conn)
	if !ok {
		return nil, fmt.Errorf("%T has no file descriptor", hc.Conn)
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd, derr := -1, error(nil)
	if err := rc.Control(func(s uintptr) { fd, derr = unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0) }); err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, derr
	}
	// The duplicate shares the file's O_NONBLOCK with Go's own fd.
	return &session{fd: fd, out: make([]byte, 0, 64), in: make([]byte, 0, 512)}, nil
}

// drive runs sess on the calling goroutine, locked to its thread, until
// stop, and returns the transactions completed.
func drive(sess []*session, accounts int64, seed uint64, stop *atomic.Bool) (int64, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return 0, err
	}
	defer unix.Close(ep)
	rng := rand.New(rand.NewPCG(seed, 31))
	for i, s := range sess {
		ev := unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(i)}
		if err := unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, s.fd, &ev); err != nil {
			return 0, err
		}
		if err := s.send(1 + rng.Int64N(accounts)); err != nil {
			return 0, err
		}
	}
	events := make([]unix.EpollEvent, len(sess))
	var n int64
	var hist [64]int64 // residence times by power of two of nanoseconds
	yielded := time.Now()
	for !stop.Load() {
		k, err := unix.EpollWait(ep, events, 100)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return n, fmt.Errorf("epoll_wait: %w", err)
		}
		for _, ev := range events[:k] {
			s := sess[ev.Fd]
			done, err := s.receive()
			if err != nil {
				return n, err
			}
			if !done {
				continue
			}
			n++
			hist[bits.Len64(uint64(time.Since(s.sent)))]++
			if err := s.send(1 + rng.Int64N(accounts)); err != nil {
				return n, err
			}
		}
		// The driver's periodic pass through the scheduler (iopath.go's
		// yieldThread), so the runtime's monitor leaves the thread alone.
		if now := time.Now(); now.Sub(yielded) >= 5*time.Millisecond {
			yielded = now
			runtime.UnlockOSThread()
			runtime.Gosched()
			runtime.LockOSThread()
		}
	}
	return n, nil
}

// send writes one transaction: Bind (unnamed portal, statement "s", one text
// parameter), Execute, Sync, in one write.
func (s *session) send(aid int64) error {
	b := s.out[:0]
	b = append(b, 'B', 0, 0, 0, 0)
	b = append(b, 0)      // portal ""
	b = append(b, 's', 0) // statement "s"
	b = append(b, 0, 0)   // no parameter format codes: text
	b = append(b, 0, 1)   // one parameter
	b = append(b, 0, 0, 0, 0)
	p := len(b)
	b = strconv.AppendInt(b, aid, 10)
	binary.BigEndian.PutUint32(b[p-4:], uint32(len(b)-p))
	b = append(b, 0, 0) // no result format codes: text
	binary.BigEndian.PutUint32(b[1:], uint32(len(b)-1))
	b = append(b, 'E', 0, 0, 0, 9, 0, 0, 0, 0, 0) // Execute "" all rows
	b = append(b, 'S', 0, 0, 0, 4)                // Sync
	s.out = b
	s.sent = time.Now()
	for len(b) > 0 {
		w, err := unix.Write(s.fd, b)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("write: %w", err)
		}
		b = b[w:]
	}
	return nil
}

// receive reads what the socket has and reports whether the reply is
// complete (its ReadyForQuery is in); an ErrorResponse is an error.
func (s *session) receive() (bool, error) {
	if cap(s.in)-len(s.in) < 256 {
		s.in = append(s.in, make([]byte, 256)...)[:len(s.in)]
	}
	r, err := unix.Read(s.fd, s.in[len(s.in):cap(s.in)])
	if err == unix.EAGAIN || err == unix.EINTR {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read: %w", err)
	}
	if r == 0 {
		return false, errors.New("server closed the connection")
	}
	s.in = s.in[:len(s.in)+r]
	for b := s.in; len(b) >= 5; {
		l := int(binary.BigEndian.Uint32(b[1:5]))
		if len(b) < 1+l {
			break
		}
		switch b[0] {
		case 'E':
			return false, fmt.Errorf("server error: %q", b[5:1+l])
		case 'Z':
			s.in = s.in[:0]
			return true, nil
		}
		b = b[1+l:]
	}
	return false, nil
}
