package experiment

import (
	"time"

	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/live"
	"github.com/dbgauge/dbgauge/internal/nodes"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
)

// The sweep's structured events for the live page: the rate each second,
// each finished cycle and scale with the counts results.json keeps, the
// machine's load and the remote agents. The stream is written only when
// the command gave the run a Live (r.live nil: nothing).

// ms is d in milliseconds, as the stream carries residence times.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// liveRate is the cycle running, so far (from driver.Progress).
func (r *dsbenchRun) liveRate(x int64, pg driver.Progress) {
	r.live.emit(live.Event{Kind: live.KindRate, Scale: x, Cycle: pg.Cycle, Rate: &live.Rate{
		Elapsed: pg.Elapsed, Committed: pg.Committed, Failed: pg.Failed, TPS: pg.TPS,
		P50: ms(pg.P50), P95: ms(pg.P95), P99: ms(pg.P99), Errors: pg.Errors.Map(), ETA: r.eta(x, pg),
		Types: liveTypes(pg.Types),
	}})
}

// liveCycle is a finished cycle: the same CycleResult that the journal's
// cycle entry and results.json's cycle details are made of, so the
// stream's counts equal the stored ones by construction.
func (r *dsbenchRun) liveCycle(x int64, cycle int, c *driver.CycleResult) {
	p50, p95, p99 := driver.Quantiles(c.Residence)
	r.live.emit(live.Event{Kind: live.KindCycle, Scale: x, Cycle: cycle, Rate: &live.Rate{
		Elapsed: c.Demanded, Committed: c.Committed, Failed: c.Failed, TPS: c.TPS(),
		P50: ms(p50), P95: ms(p95), P99: ms(p99), Errors: c.Errors.Map(),
		Types: liveTypes(c.TypeProgress()),
	}})
}

// liveTypes are the per-type commits as the stream carries them.
func liveTypes(ts []driver.TypeProgress) []live.TypeRate {
	var out []live.TypeRate
	for _, t := range ts {
		out = append(out, live.TypeRate{Name: t.Name, Committed: t.Committed, TPS: t.TPS})
	}
	return out
}

// liveScale is a finished scale's row as results.json has it: its median
// rate over its cycles.
func (r *dsbenchRun) liveScale(sr *results.ScaleResult) {
	r.live.emit(live.Event{Kind: live.KindScale, Scale: sr.Scale, Rate: &live.Rate{
		Committed: sr.Transactions, Failed: sr.Failed, TPS: sr.MedianTPS,
	}})
}

// liveLoad is one load sample: CPU in percent, bytes per second from the
// sample's deltas over its interval.
func (r *dsbenchRun) liveLoad(s sysinfo.Sample) {
	sec := s.Interval.Seconds()
	if sec <= 0 {
		return
	}
	r.live.emit(live.Event{Kind: live.KindLoad, Load: &live.Load{
		CPUUser: s.CPU.User, CPUSystem: s.CPU.System, CPUIOWait: s.CPU.IOWait,
		DiskRead: float64(s.Disk.ReadBytes) / sec, DiskWrite: float64(s.Disk.WriteBytes) / sec,
		NetRx: float64(s.Net.RxBytes) / sec, NetTx: float64(s.Net.TxBytes) / sec,
	}})
}

// liveNodes is the remote agents' status (nodes.MasterOptions.Status).
func (r *dsbenchRun) liveNodes(as []nodes.AgentStatus) {
	out := make([]live.Node, len(as))
	for i, a := range as {
		out[i] = live.Node{Name: a.Name, Status: a.Status, HeartbeatAge: a.HeartbeatAge, Committed: a.Committed}
	}
	r.live.emit(live.Event{Kind: live.KindNodes, Nodes: out})
}

// populated notes how long scale x took to populate, from which the ETA
// expects the later scales' population (proportional to the scale).
func (r *dsbenchRun) populated(x int64, d time.Duration) {
	r.etaMu.Lock()
	defer r.etaMu.Unlock()
	r.popTime += d
	r.popScale += x
}

// eta is the sweep's expected remaining time during cycle pg of scale x:
// the cycles left at their demanded duration, plus the later scales'
// population at the rate the scales done so far populated. Checks and
// cleanups between cycles are not counted (they are short next to D).
func (r *dsbenchRun) eta(x int64, pg driver.Progress) time.Duration {
	d := r.plan.Duration
	left := time.Duration(pg.Cycles-pg.Cycle)*d + max(d-pg.Elapsed, 0)
	r.etaMu.Lock()
	popTime, popScale := r.popTime, r.popScale
	r.etaMu.Unlock()
	later := false
	for _, s := range r.plan.Scales {
		if later {
			left += time.Duration(r.plan.Cycles) * d
			if popScale > 0 {
				left += time.Duration(float64(popTime) * float64(s) / float64(popScale))
			}
		}
		later = later || s == x
	}
	return left
}
