package driver

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	_ "github.com/dbgauge/dbgauge/internal/dbms/firebird"
	_ "github.com/dbgauge/dbgauge/internal/dbms/mysql"
	_ "github.com/dbgauge/dbgauge/internal/dbms/postgres"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// These tests run the load against private servers, whose sessions block in
// the kernel (dbms/blockio): a context cannot reach them there, the driver's
// abort and the URL's io_timeout must.

// sleepSQL is a statement that keeps a session waiting far longer than any
// test runs, per engine.
var sleepSQL = map[string]string{
	"postgres": "SELECT pg_sleep(600)",
	"mariadb":  "SELECT SLEEP(600)",
	// Firebird has no sleep: a loop of ten billion steps.
	"firebird": "EXECUTE BLOCK AS DECLARE i BIGINT = 0; BEGIN WHILE (i < 10000000000) DO i = i + 1; END",
}

// TestAbortBlockedSessions: a run whose threads all wait in the kernel for
// a server that is busy for ten minutes stops as soon as its context ends
// (Ctrl-C), with the context's error, not when the server answers.
func TestAbortBlockedSessions(t *testing.T) {
	for _, engine := range []string{"postgres", "mariadb", "firebird"} {
		t.Run(engine, func(t *testing.T) {
			inst := servertest.Start(t, engine, server.Options{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var inside sync.WaitGroup
			inside.Add(2)
			cfg := Config{
				Threads: 2, Cycles: 1, Duration: 10 * time.Minute,
				Open: func(ctx context.Context, _ *Session) (dbms.Engine, error) { return dbms.Open(ctx, inst.URL) },
				NewOp: func(node, thread int) Op {
					first := true
					return func(ctx context.Context, s *Session) error {
						if first {
							first = false
							inside.Done()
						}
						_, err := s.Engine.Exec(ctx, sleepSQL[engine])
						return err
					}
				},
			}
			go func() {
				inside.Wait()
				time.Sleep(200 * time.Millisecond) // both threads now in read(2)
				cancel()
			}()
			start := time.Now()
			res, err := Run(ctx, cfg)
			took := time.Since(start)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want context.Canceled", err)
			}
			// The statements would have answered after 600 s; a minute is
			// a bound no scheduling noise reaches and no time-out explains.
			if took > time.Minute {
				t.Errorf("Run returned after %v", took)
			}
			if res == nil || res.Interrupted == nil || res.Interrupted.Failed != 0 || res.Interrupted.Committed != 0 {
				t.Errorf("interrupted cycle %+v: want no trial counted (the cancelled ones are no failures)", res.Interrupted)
			}
		})
	}
}

// TestServerStopsAnswering: the backends serving the sessions are stopped
// (SIGSTOP) in the middle of a cycle. Each stuck transaction fails after the
// URL's io_timeout as a failed trial of class timeout; its thread opens a new
// session and goes on, and the run ends normally.
func TestServerStopsAnswering(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	url := inst.URL + "?io_timeout=1s"
	var mu sync.Mutex
	var pids []int
	var calls atomic.Int64
	stopped := make(chan struct{})
	cfg := Config{
		Threads: 2, Cycles: 1, Duration: 6 * time.Second,
		Open: func(ctx context.Context, _ *Session) (dbms.Engine, error) { return dbms.Open(ctx, url) },
		Setup: func(ctx context.Context, s *Session) error {
			pid, err := s.Engine.(interface {
				BackendPID(context.Context) (int, error)
			}).BackendPID(ctx)
			mu.Lock()
			pids = append(pids, pid)
			mu.Unlock()
			return err
		},
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error {
				calls.Add(1)
				_, err := s.Engine.Exec(ctx, "SELECT 1")
				return err
			}
		},
	}
	go func() {
		// Both sessions are open and the cycle runs (on a loaded machine
		// opening them may take longer than a fixed pause).
		for calls.Load() < 1000 {
			time.Sleep(10 * time.Millisecond)
		}
		mu.Lock()
		first := append([]int(nil), pids...)
		mu.Unlock()
		for _, pid := range first {
			syscall.Kill(pid, syscall.SIGSTOP)
		}
		close(stopped)
		t.Cleanup(func() {
			for _, pid := range first {
				syscall.Kill(pid, syscall.SIGCONT)
			}
		})
	}()
	res, err := Run(context.Background(), cfg)
	<-stopped
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	c := res.Cycles[0]
	var reconnects int64
	for _, th := range c.Threads {
		reconnects += th.Reconnects
	}
	if len(pids) < 4 || c.Failed != 2 || reconnects != 2 || c.Committed == 0 {
		t.Errorf("sessions %d, failed %d, reconnects %d, committed %d: want each of the 2 stopped sessions' transaction failed and replaced", len(pids), c.Failed, reconnects, c.Committed)
	}
}

// TestWholeServerStops: with the whole server stopped, the thread's new
// session cannot be opened either: the run ends within a few time-outs
// with an error that names the time-out and is no bad input (exit 1, not 2),
// keeping the cycle's counts.
func TestWholeServerStops(t *testing.T) {
	inst := servertest.Start(t, "mariadb", server.Options{})
	url := inst.URL + "?io_timeout=1s"
	cfg := Config{
		Threads: 2, Cycles: 1, Duration: time.Minute,
		Open: func(ctx context.Context, _ *Session) (dbms.Engine, error) { return dbms.Open(ctx, url) },
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error {
				_, err := s.Engine.Exec(ctx, "SELECT 1")
				return err
			}
		},
	}
	go func() {
		time.Sleep(time.Second)
		syscall.Kill(inst.PID, syscall.SIGSTOP)
	}()
	t.Cleanup(func() { syscall.Kill(inst.PID, syscall.SIGCONT) })
	start := time.Now()
	res, err := Run(context.Background(), cfg)
	syscall.Kill(inst.PID, syscall.SIGCONT)
	if err == nil {
		t.Fatal("run went on with the server stopped")
	}
	if time.Since(start) > 50*time.Second {
		t.Errorf("run ended after %v: the cycle's end, not the time-out, stopped it", time.Since(start))
	}
	if dbms.Classify(err) == dbms.BadInput || !strings.Contains(err.Error(), "time-out") {
		t.Errorf("error %q (class %v): want a failure during the run that names the time-out", err, dbms.Classify(err))
	}
	if res == nil || res.Interrupted == nil || res.Interrupted.Committed == 0 || res.Interrupted.Failed == 0 {
		t.Errorf("interrupted cycle %+v: want its commits and the failed trials kept", res.Interrupted)
	}
}

// TestCyclesEndOnTime: with sessions blocked in the kernel between their
// request and the reply, every cycle still ends at its end: the workers
// stop within a transaction's time of it, not a time-out's (30 s).
func TestCyclesEndOnTime(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	cfg := Config{
		Threads: 2, Connections: 2, Cycles: 3, Duration: 500 * time.Millisecond,
		Open: func(ctx context.Context, _ *Session) (dbms.Engine, error) { return dbms.Open(ctx, inst.URL) },
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error {
				_, err := s.Engine.Exec(ctx, "SELECT pg_sleep(0.01)")
				return err
			}
		},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Cycles {
		if over := c.Stopped.Sub(c.End); over < 0 || over > 10*time.Second || c.Committed == 0 || c.Failed != 0 {
			t.Errorf("cycle %d: stopped %v after its end, %d committed, %d failed", c.Cycle, over, c.Committed, c.Failed)
		}
	}
}
