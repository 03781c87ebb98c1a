package timing

import (
	"math"
	"testing"
	"time"
)

func TestTickComputedMS(t *testing.T) {
	qe := QE{Classes: map[Class]Usage{Query: {UserTicks: 12, SysTicks: 3, BlkioTicks: 2}}, Overall: Overall{IOWait: 4}}
	// (12 + 3 + 2 - 0.5 x 4) x 10 ms
	if got := TickComputedMS(qe); got != 150 {
		t.Errorf("computed %v ms, want 150", got)
	}
	// An odd IOWait gives half a tick: (12+3+2-1.5) x 10.
	qe.Overall.IOWait = 3
	if got := TickComputedMS(qe); got != 155 {
		t.Errorf("computed %v ms, want 155", got)
	}
	// The clean QE of the checks: (12+3+2-1) x 10.
	if got := TickComputedMS(cleanQE(1)); got != 160 {
		t.Errorf("clean QE computed %v ms, want 160", got)
	}
}

func TestFineComputedMS(t *testing.T) {
	qe := QE{Overall: Overall{IOWait: 4}, Classes: map[Class]Usage{Query: {
		Fine: true, CPUUS: 156000, RunNS: 151_234_000, BlkioNS: 20_500_000, UserTicks: 12, SysTicks: 3,
	}}}
	// schedstat first: 151.234 + 20.5 - 0.5 x 4 x 10 ms
	if got, ok := FineComputedMS(qe); !ok || math.Abs(got-151.734) > 1e-9 {
		t.Errorf("fine %v %v, want 151.734", got, ok)
	}
	// No schedstat: taskstats' CPU time, 156 + 20.5 - 20.
	u := qe.Classes[Query]
	u.RunNS = 0
	qe.Classes[Query] = u
	if got, ok := FineComputedMS(qe); !ok || math.Abs(got-156.5) > 1e-9 {
		t.Errorf("fine from taskstats %v %v, want 156.5", got, ok)
	}
	u.Fine = false
	qe.Classes[Query] = u
	if _, ok := FineComputedMS(qe); ok {
		t.Error("fine time without fine measures")
	}
}

func TestMtTicks(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want int64
	}{{0, 0}, {time.Microsecond, 1}, {10 * time.Millisecond, 1}, {10*time.Millisecond + 1, 2}, {200 * time.Millisecond, 20}} {
		if got := mtTicks(c.d); got != c.want {
			t.Errorf("ceil(%v/10ms) = %d, want %d", c.d, got, c.want)
		}
	}
}
