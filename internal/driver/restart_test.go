package driver

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// restartGap is how long the server stays down in TestSurviveRestart: the
// 0.3 s of the reported defect, well under the backoff's cap.
const restartGap = 300 * time.Millisecond

// TestSurviveRestart: a private server stopped and started again 0.3 s
// later in the middle of a cycle, under Retry and Reconnect, costs only the
// transactions in flight: the run goes on to its last cycle, every commit
// the clients saw is in the table, the failures are counted by class and
// the reconnects are counted.
func TestSurviveRestart(t *testing.T) {
	for _, tc := range []struct {
		engine    string
		reconnect bool // else the sessions stay open: the lost ones are replaced
		// crash kills the server (kill -9) instead of stopping it:
		// Firebird's orderly shutdown waits for the sessions under load
		// to end, which they never do.
		crash bool
	}{{"postgres", true, false}, {"mariadb", true, false}, {"firebird", true, true}, {"postgres", false, false}} {
		engine := tc.engine
		name := engine + "/retry"
		if tc.reconnect {
			name += "+reconnect"
		}
		if tc.crash {
			name += "/kill-9"
		}
		t.Run(name, func(t *testing.T) {
			inst := servertest.Start(t, engine, server.Options{})
			ctx := context.Background()
			ctl, err := dbms.Open(ctx, inst.URL)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{"CREATE TABLE t (thread INTEGER, input BIGINT)"} { // a fresh instance
				if _, err := ctl.Exec(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
			ctl.Close()

			var seen, inDoubt atomic.Int64 // commits the clients saw; commits whose answer was lost
			var restarted sync.WaitGroup
			var restartErr error
			var once sync.Once
			cfg := Config{
				Threads: 2, Cycles: 4, Duration: 3 * time.Second, Retry: true, Reconnect: tc.reconnect, Seed: 7,
				Open:          func(ctx context.Context, _ *Session) (dbms.Engine, error) { return dbms.Open(ctx, inst.URL) },
				ProgressEvery: 100 * time.Millisecond,
				// The restart begins in cycle 2 once it has commits.
				Progress: func(p Progress) {
					if p.Cycle == 2 && p.Committed > 0 {
						once.Do(func() {
							restarted.Add(1)
							go func() {
								defer restarted.Done()
								if tc.crash {
									if restartErr = inst.Kill(); restartErr != nil {
										return
									}
								}
								restartErr = inst.RestartAfter(ctx, restartGap)
							}()
						})
					}
				},
				NewOp: func(node, thread int) Op {
					return func(ctx context.Context, s *Session) error {
						if err := s.Tx.Begin(ctx, dbms.ReadCommitted); err != nil {
							return err
						}
						if _, err := s.Tx.ExecArgs(ctx, "INSERT INTO t VALUES (?, ?)", s.Thread, s.Rand.Int64N(1e9)); err != nil {
							return err
						}
						if err := s.Tx.Commit(ctx); err != nil {
							inDoubt.Add(1)
							return err
						}
						seen.Add(1)
						return nil
					}
				},
			}
			res, err := runOrHang(t, ctx, cfg, 3*time.Minute)
			restarted.Wait()
			if restartErr != nil {
				t.Fatalf("restart: %v", restartErr)
			}
			if err != nil {
				t.Fatalf("the run did not survive a %v restart: %v", restartGap, err)
			}
			if len(res.Cycles) != cfg.Cycles {
				t.Fatalf("%d cycles, want %d", len(res.Cycles), cfg.Cycles)
			}
			if last := res.Cycles[cfg.Cycles-1]; last.Committed == 0 {
				t.Errorf("last cycle committed nothing: %+v", last)
			}
			checkRestartCounts(t, res)
			// Only the transactions in flight are lost: every commit the
			// clients saw is in the table, and at most the commits whose
			// answer the restart swallowed are there too.
			n := rows(t, inst.URL)
			if n < seen.Load() || n > seen.Load()+inDoubt.Load() {
				t.Errorf("table holds %d rows; the clients saw %d commits and %d in doubt", n, seen.Load(), inDoubt.Load())
			}
		})
	}
}

// checkRestartCounts: the restart shows in the counts: failed trials of
// transient classes and reconnects, in the totals and in the cycles, and
// every failed trial is counted under its class.
func checkRestartCounts(t *testing.T, res *Result) {
	t.Helper()
	if res.Errors.Transient() == 0 || res.Reconnects == 0 {
		t.Errorf("errors by class %v, %d reconnects: the restart does not show", res.Errors.Map(), res.Reconnects)
	}
	var sum int64
	for _, n := range res.Errors {
		sum += n
	}
	if sum != res.Failed {
		t.Errorf("errors by class %v sum to %d, failed trials %d", res.Errors.Map(), sum, res.Failed)
	}
	var transient, reconnects int64
	for _, c := range res.Cycles {
		transient += c.Errors.Transient()
		reconnects += c.Reconnects
		var th ErrorCounts
		for _, x := range c.Threads {
			th.Add(x.Errors)
		}
		if th != c.Errors {
			t.Errorf("cycle %d: threads' errors %v, cycle's %v", c.Cycle, th.Map(), c.Errors.Map())
		}
	}
	if transient != res.Errors.Transient() || reconnects != res.Reconnects {
		t.Errorf("cycles: %d transient errors, %d reconnects; totals %d, %d", transient, reconnects, res.Errors.Transient(), res.Reconnects)
	}
	t.Logf("errors by class %v, %d reconnects, %d retries", res.Errors.Map(), res.Reconnects, res.Retries)
}

// TestGiveUp: a server killed for good in cycle 2 under Retry and
// Reconnect is waited for up to GiveUp, then the run ends with a
// *GiveUpError naming the fault: of a transient class (a failed run, never
// the user's bad input), with cycle 1 kept and cycle 2 returned apart.
func TestGiveUp(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	ctx := context.Background()
	var once sync.Once
	stopped := make(chan error, 1)
	cfg := Config{
		Threads: 2, Cycles: 3, Duration: 3 * time.Second, Retry: true, Reconnect: true,
		BackoffCap: 100 * time.Millisecond, GiveUp: time.Second,
		Open:          func(ctx context.Context, _ *Session) (dbms.Engine, error) { return dbms.Open(ctx, inst.URL) },
		ProgressEvery: 100 * time.Millisecond,
		Progress: func(p Progress) {
			if p.Cycle == 2 && p.Committed > 0 {
				once.Do(func() { go func() { stopped <- inst.Kill() }() })
			}
		},
		NewOp: func(node, thread int) Op {
			return func(ctx context.Context, s *Session) error {
				_, err := s.Engine.Exec(ctx, "SELECT 1")
				return err
			}
		},
	}
	res, err := runOrHang(t, ctx, cfg, 2*time.Minute)
	if serr := <-stopped; serr != nil {
		t.Fatalf("stop: %v", serr)
	}
	var g *GiveUpError
	if !errors.As(err, &g) || !dbms.Classify(err).Transient() {
		t.Fatalf("err %v (class %v), want a GiveUpError of a transient class", err, dbms.Classify(err))
	}
	if g.Down < cfg.GiveUp || g.Attempts < 2 {
		t.Errorf("gave up after %v and %d attempts, want at least %v and 2", g.Down, g.Attempts, cfg.GiveUp)
	}
	if len(res.Cycles) != 1 || res.Interrupted == nil || res.Interrupted.Cycle != 2 || res.Interrupted.Errors.Transient() == 0 {
		t.Errorf("kept %d cycles, interrupted %+v: want cycle 1 kept, cycle 2 apart with its faults counted", len(res.Cycles), res.Interrupted)
	}
	t.Logf("%v", err)
}
