package driver

import (
	"bytes"
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// TestClosedLoopCounts runs 2 threads x 2 connections for 3 cycles on
// SQLite with an op that inserts one row per commit and fails every 4th
// attempt, and checks that every count the driver keeps agrees with the
// table, the histograms and the raw times.
func TestClosedLoopCounts(t *testing.T) {
	open, opens, url := sqliteDB(t)
	const threads, conns, cycles = 2, 2, 3
	var planned atomic.Int64
	var perConn [threads][conns]atomic.Int64
	var raw bytes.Buffer
	cfg := Config{
		Threads: threads, Connections: conns, Cycles: cycles, Duration: 150 * time.Millisecond,
		Open: open, RawTimes: &raw,
		Setup: func(ctx context.Context, s *Session) error {
			if _, isTx := s.Engine.(dbms.Transactor); isTx != (s.Tx != nil) {
				t.Errorf("engine is a Transactor: %v, Session.Tx %v", isTx, s.Tx)
			}
			return nil
		},
		NewOp: func(node, thread int) Op {
			n := 0
			return func(ctx context.Context, s *Session) error {
				n++
				perConn[s.Thread][s.Conn].Add(1)
				fail := n%4 == 0
				if fail {
					planned.Add(1)
				}
				return insert(ctx, s, int64(n), fail)
			}
		},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cycles) != cycles || res.Interrupted != nil {
		t.Fatalf("%d cycles, interrupted %v", len(res.Cycles), res.Interrupted)
	}
	if got := opens.Load(); got != threads*conns {
		t.Errorf("opened %d sessions, want %d", got, threads*conns)
	}

	var late, committed, failed int64
	for i, c := range res.Cycles {
		if c.Cycle != i+1 || len(c.Threads) != threads {
			t.Fatalf("cycle %d: number %d, %d threads", i, c.Cycle, len(c.Threads))
		}
		var sum int64
		for _, th := range c.Threads {
			sum += th.Committed
			late += th.Late
			if th.Late > 1 {
				t.Errorf("cycle %d thread %d: %d late transactions, at most 1 can be in flight", c.Cycle, th.Thread, th.Late)
			}
			if th.Residence.TotalCount() != th.Committed {
				t.Errorf("cycle %d thread %d: histogram holds %d, committed %d", c.Cycle, th.Thread, th.Residence.TotalCount(), th.Committed)
			}
			// One thread's transactions do not overlap, so their residence
			// times fit into its effective duration, which fits into D.
			if th.Committed == 0 || th.SumResidence > th.Effective || th.Effective > c.Demanded {
				t.Errorf("cycle %d thread %d: committed %d, R %v, L %v, D %v", c.Cycle, th.Thread, th.Committed, th.SumResidence, th.Effective, c.Demanded)
			}
		}
		if sum != c.Committed || c.Residence.TotalCount() != c.Committed {
			t.Errorf("cycle %d: committed %d, threads sum %d, histogram %d", c.Cycle, c.Committed, sum, c.Residence.TotalCount())
		}
		committed += c.Committed
		failed += c.Failed
	}
	if committed != res.Committed || res.Residence.TotalCount() != res.Committed || failed != res.Failed {
		t.Errorf("run totals %d/%d (histogram %d), cycles %d/%d", res.Committed, res.Failed, res.Residence.TotalCount(), committed, failed)
	}
	t.Logf("committed %d, failed %d, late %d, planned failures %d", res.Committed, res.Failed, late, planned.Load())
	// Every committed row is either counted in a cycle or was in flight at
	// a cycle's end.
	if got := rows(t, url); got != res.Committed+late {
		t.Errorf("table has %d rows, driver counted %d committed + %d late", got, res.Committed, late)
	}
	// Failed trials: all planned failures but those in flight at an end.
	straddled := late + planned.Load() - res.Failed
	if res.Failed == 0 || straddled < 1 || straddled > threads*cycles {
		t.Errorf("failed %d of %d planned, late %d: %d transactions in flight at cycle ends, want 1..%d",
			res.Failed, planned.Load(), late, straddled, threads*cycles)
	}
	for j := range threads {
		a, b := perConn[j][0].Load(), perConn[j][1].Load()
		if a-b > 1 || b-a > 1 {
			t.Errorf("thread %d: connections used %d and %d times, want round robin", j, a, b)
		}
	}
	if d := res.Details(); len(d) != cycles*threads {
		t.Errorf("%d details", len(d))
	}

	// Raw times: one line per counted trial, inside its cycle.
	lines := parseRaw(t, &raw)
	var ok, bad int64
	for _, l := range lines {
		c := res.Cycles[l.cycle-1]
		if l.start < c.Start.UnixMicro()-1 || l.start+l.micros > c.End.UnixMicro()+2 {
			t.Errorf("raw line %+v outside cycle %d [%d, %d]", l, c.Cycle, c.Start.UnixMicro(), c.End.UnixMicro())
		}
		if l.ok {
			ok++
		} else {
			bad++
		}
	}
	if ok != res.Committed || bad != res.Failed {
		t.Errorf("raw times: %d ok, %d failed lines; want %d, %d", ok, bad, res.Committed, res.Failed)
	}
}
