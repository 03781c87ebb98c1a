package driver

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestWait: a thread of the closed loop waits Config.Wait after each
// transaction, told the type the Op ran; the wait bounds how many
// transactions fit in a cycle (a wait of 100 ms: at most 11 in a second,
// whatever the machine's speed), and a wait longer than the rest of the
// cycle ends with the cycle instead of holding the run.
func TestWait(t *testing.T) {
	open, _, _ := sqliteDB(t)
	var mu sync.Mutex
	seen := map[int]int{}
	cfg := Config{
		Cycles: 2, Threads: 2, Duration: time.Second, Open: open, Types: []string{"a", "b"},
		NewOp: func(node, thread int) Op {
			n := 0
			return func(ctx context.Context, s *Session) error {
				n++
				s.Type = (n + 1) % 2
				return nil
			}
		},
		Wait: func(typ int, r *rand.Rand) time.Duration {
			mu.Lock()
			seen[typ]++
			mu.Unlock()
			if typ == -1 {
				return 0 // the start of a cycle
			}
			if typ == 1 {
				return time.Hour // longer than the cycle: cut at its end
			}
			return 100 * time.Millisecond
		},
	}
	start := time.Now()
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > time.Minute {
		t.Fatalf("the run took %v: a wait past the cycle's end held it", el)
	}
	for _, c := range res.Cycles {
		for _, th := range c.Threads {
			// Type 0 then type 1, whose wait ends the cycle: two per cycle.
			if th.Committed != 2 {
				t.Errorf("cycle %d thread %d: %d committed, want 2 (a transaction of each type, then the wait to the cycle's end)", c.Cycle, th.Thread, th.Committed)
			}
		}
	}
	if seen[0] == 0 || seen[1] == 0 || seen[-1] != 2*2 {
		t.Errorf("Wait saw types %v, want both, and the start of each cycle on each thread (-1: 4)", seen)
	}
	cfg.Rate = 10
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "Wait") {
		t.Errorf("Wait with a Rate: %v, want a refusal", err)
	}
}
