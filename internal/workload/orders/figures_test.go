package orders

import (
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/workload"
)

func figure(t *testing.T, fs []workload.Figure, name string) workload.Figure {
	t.Helper()
	for _, f := range fs {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no figure %q in %+v", name, fs)
	return workload.Figure{}
}

// The figures from what the check read and the clients counted: NOPM
// from the districts' next order numbers per minute of each cycle and of
// the scale, the clients' own new orders without the rollbacks beside
// it, and the audit judged only on inputs enough.
func TestFigures(t *testing.T) {
	c := newFigureCheck(NewCheck(), 2, true)
	start := int64(3001 * 10 * 2)
	if c.prev != start {
		t.Fatalf("next orders after the load: %d, want %d", c.prev, start)
	}
	counts := make([]int64, numCounts)
	counts[cntRollbacks] = 10
	// Cycle 1: 1,200 orders entered in 30 s; the clients committed 1,210
	// New-Orders, 10 of them rolled back.
	c.next = start + 1200
	c.Verify(workload.Commits{Committed: 2700, ByType: []int64{1210, 1160, 110, 110, 110}, Elapsed: 30 * time.Second, Counts: counts})
	fs := c.Figures()
	if f := figure(t, fs, "NOPM (database)"); f.Cycle != 2400 || f.Scale != 2400 {
		t.Errorf("NOPM %+v, want 2,400 a minute", f)
	}
	if f := figure(t, fs, "new orders per minute (clients)"); f.Cycle != 2400 {
		t.Errorf("clients' new orders %+v, want 2,400 a minute (1,210 less 10 rolled back)", f)
	}
	if f := figure(t, fs, "efficiency"); f.Cycle < 9331 || f.Cycle > 9332 {
		t.Errorf("efficiency %+v, want 2,400 / (12.86 x 2) = 9,331 %%", f)
	}
	if f := figure(t, fs, "rollbacks"); f.Low != nil || f.Pass() != true {
		t.Errorf("rollbacks judged on 2,700 transactions: %+v", f)
	}
	// Cycle 2: 60 s more with no order; the scale's NOPM is over both.
	c.Verify(workload.Commits{Committed: 0, ByType: make([]int64, numTypes), Elapsed: time.Minute, Counts: make([]int64, numCounts)})
	if f := figure(t, c.Figures(), "NOPM (database)"); f.Cycle != 0 || f.Scale != 800 {
		t.Errorf("NOPM %+v, want 0 this cycle, 1,200 / 1.5 min = 800 over the scale", f)
	}
	// Inputs enough: 200,000 transactions whose rollbacks are 2 %: judged,
	// and out of bounds; lines per order at 10: within.
	big := make([]int64, numCounts)
	big[cntRollbacks], big[cntLines] = 1800, 900_000
	c.Verify(workload.Commits{Committed: 200_000, ByType: []int64{90_000, 86_000, 8000, 8000, 8000}, Elapsed: time.Minute, Counts: big})
	fs = c.Figures()
	rb := figure(t, fs, "rollbacks")
	if rb.Low == nil || rb.Pass() {
		t.Errorf("rollbacks at %.2f %% of 91,210 New-Orders: %+v, want judged and failed", rb.Scale, rb)
	}
	if lines := figure(t, fs, "lines per order"); lines.Low == nil || !lines.Pass() {
		t.Errorf("lines per order %+v, want judged and within 9.5..10.5", lines)
	}
	// Two warehouses: the remote shares are judged (none: fails).
	if rp := figure(t, fs, "remote payments"); rp.Low == nil || rp.Pass() {
		t.Errorf("remote payments %+v: want judged, and 0 %% out of 14..16", rp)
	}
	one := newFigureCheck(NewCheck(), 1, false)
	one.Verify(workload.Commits{Committed: 200_000, ByType: []int64{90_000, 86_000, 8000, 8000, 8000}, Elapsed: time.Minute, Counts: big})
	if rp := figure(t, one.Figures(), "remote payments"); rp.Low != nil {
		t.Errorf("one warehouse: remote payments judged %+v", rp)
	}
	for _, f := range one.Figures() {
		if f.Name == "efficiency" {
			t.Errorf("efficiency without waits: %+v", f)
		}
	}
}
