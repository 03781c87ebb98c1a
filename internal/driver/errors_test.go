package driver

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// TestCancel: a context cancelled early in the second cycle ends the run; Run
// returns the first cycle, the interrupted one apart, and the context's error.
func TestCancel(t *testing.T) {
	open, _, _ := sqliteDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var second, calls atomic.Int64
	cfg := Config{
		Threads: 2, Cycles: 3, Duration: 300 * time.Millisecond, Open: open,
		BetweenCycles: func(ctx context.Context, cycle int, res CycleResult) error {
			second.Store(1)
			return nil
		},
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error {
				// Cancel after 20 calls in cycle 2.
				if second.Load() == 1 && calls.Add(1) == 20 {
					cancel()
				}
				_, err := s.Engine.Exec(ctx, "SELECT 1")
				return err
			}
		},
	}
	res, err := Run(ctx, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if len(res.Cycles) != 1 || res.Interrupted == nil || res.Interrupted.Cycle != 2 {
		t.Fatalf("%d cycles, interrupted %+v", len(res.Cycles), res.Interrupted)
	}
	if res.Committed != res.Cycles[0].Committed || res.Interrupted.Committed == 0 {
		t.Errorf("run counts %d, cycle 1 %d, interrupted %d", res.Committed, res.Cycles[0].Committed, res.Interrupted.Committed)
	}
}

// TestFatalSyntax: SQL the engine rejects ends the run with the engine's
// error instead of a cycle of failed trials.
func TestFatalSyntax(t *testing.T) {
	open, _, _ := sqliteDB(t)
	cfg := Config{
		Threads: 2, Cycles: 2, Duration: 10 * time.Second, Open: open,
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error {
				_, err := s.Engine.Exec(ctx, "SELEC 1")
				return err
			}
		},
	}
	res, err := Run(context.Background(), cfg)
	if dbms.Classify(err) != dbms.Syntax || !strings.Contains(err.Error(), "thread") {
		t.Fatalf("error %v (%v), want a syntax error naming the thread", err, dbms.Classify(err))
	}
	if res == nil || res.Interrupted == nil || len(res.Cycles) != 0 {
		t.Fatalf("result %+v", res)
	}
}

// TestOpenError: a failing Open at the start is returned at once.
func TestOpenError(t *testing.T) {
	cfg := Config{
		Threads: 2, Cycles: 1, Duration: time.Second,
		Open: func(ctx context.Context, _ *Session) (dbms.Engine, error) {
			return dbms.Open(ctx, "sqlite:"+t.TempDir()+"/no/such/dir/x.db")
		},
		NewOp: func(node, thread int) Op { return nil },
	}
	res, err := Run(context.Background(), cfg)
	if err == nil || res != nil || dbms.Classify(err) != dbms.BadInput {
		t.Fatalf("result %v, error %v", res, err)
	}
}

// TestConnectionLost: an op error of class ConnectionLost is a failed trial
// after which the thread opens a new session (with Setup) and goes on.
func TestConnectionLost(t *testing.T) {
	open, opens, _ := sqliteDB(t)
	var setups, lost atomic.Int64
	cfg := Config{
		Threads: 2, Connections: 2, Cycles: 2, Duration: 100 * time.Millisecond, Open: open,
		Setup: func(ctx context.Context, s *Session) error {
			setups.Add(1)
			_, err := s.Engine.Exec(ctx, "PRAGMA cache_size = 100")
			return err
		},
		NewOp: func(node, thread int) Op {
			n := 0
			return func(ctx context.Context, s *Session) error {
				if n++; n%10 == 0 {
					lost.Add(1)
					s.Engine.Close() // the session is really gone
					return dbms.Wrap(dbms.ConnectionLost, errors.New("test: connection lost"))
				}
				_, err := s.Engine.Exec(ctx, "SELECT 1")
				return err
			}
		},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var reconnects int64
	for _, c := range res.Cycles {
		for _, th := range c.Threads {
			reconnects += th.Reconnects
		}
	}
	// Every lost session was replaced, whether or not its failure fell in
	// a cycle; a failure counts when it did.
	if reconnects != lost.Load() || opens.Load() != 4+reconnects || setups.Load() != opens.Load() {
		t.Errorf("lost %d, reconnects %d, opens %d, setups %d", lost.Load(), reconnects, opens.Load(), setups.Load())
	}
	if res.Failed == 0 || res.Failed > lost.Load() || res.Committed == 0 {
		t.Errorf("failed %d of %d lost, committed %d", res.Failed, lost.Load(), res.Committed)
	}
}

// TestReconnect: with Reconnect every attempt opens (and sets up) a session
// of its own, and the open is inside the residence time.
func TestReconnect(t *testing.T) {
	open, opens, _ := sqliteDB(t)
	var setups atomic.Int64
	var attempts atomic.Int64
	const threads = 2
	cfg := Config{
		Threads: threads, Connections: 3, Cycles: 2, Duration: 100 * time.Millisecond, Reconnect: true, Open: open,
		Setup: func(ctx context.Context, s *Session) error { setups.Add(1); return nil },
		NewOp: func(node, thread int) Op {
			var last dbms.Engine
			return func(ctx context.Context, s *Session) error {
				attempts.Add(1)
				if s.Engine == last || s.Conn != 0 {
					return errors.New("test: session reused")
				}
				last = s.Engine
				_, err := s.Engine.Exec(ctx, "SELECT 1")
				return err
			}
		},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed != 0 || res.Committed == 0 {
		t.Errorf("failed %d, committed %d", res.Failed, res.Committed)
	}
	// One probe per thread at the start, then one session per attempt.
	if opens.Load() != threads+attempts.Load() || setups.Load() != opens.Load() {
		t.Errorf("opens %d, setups %d, attempts %d", opens.Load(), setups.Load(), attempts.Load())
	}
}

func TestConfigErrors(t *testing.T) {
	open, _, _ := sqliteDB(t)
	op := func(node, thread int) Op { return nil }
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"cycles", Config{Duration: time.Second, Open: open, NewOp: op}, "Cycles"},
		{"duration", Config{Cycles: 1, Open: open, NewOp: op}, "Duration"},
		{"rate", Config{Cycles: 1, Duration: time.Second, Rate: -1, Open: open, NewOp: op}, "Rate"},
		{"rate nan", Config{Cycles: 1, Duration: time.Second, Rate: math.NaN(), Open: open, NewOp: op}, "Rate"},
		{"rate inf", Config{Cycles: 1, Duration: time.Second, Rate: math.Inf(1), Open: open, NewOp: op}, "Rate"},
		{"rate beyond count", Config{Cycles: 1, Duration: time.Second, Rate: 1e300, Open: open, NewOp: op}, "Rate x Duration"},
		{"poisson", Config{Cycles: 1, Duration: time.Second, Poisson: true, Open: open, NewOp: op}, "Poisson"},
		{"threads", Config{Cycles: 1, Duration: time.Second, Threads: -1, Open: open, NewOp: op}, "Threads"},
		{"open", Config{Cycles: 1, Duration: time.Second, NewOp: op}, "Open"},
		{"newop", Config{Cycles: 1, Duration: time.Second, Open: open}, "NewOp"},
	} {
		_, err := Run(context.Background(), tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %s", tc.name, err, tc.want)
		}
	}
}
