package driver

import (
	"fmt"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbgauge/dbgauge/internal/results"
)

// Result is what Run measured.
type Result struct {
	// Cycles are the completed cycles, in order.
	Cycles []CycleResult
	// Interrupted is the cycle a cancellation or a fatal error cut short
	// (nil when none was): kept for the record, left out of the totals and
	// histograms below, since it did not last D.
	Interrupted *CycleResult
	// Totals over the completed cycles.
	Totals
}

// Totals are the counts and histograms of completed work: a cycle's over
// its threads (and nodes), a run's over its cycles.
type Totals struct {
	Committed, Failed, Retries, Reconnects int64
	Errors                                 ErrorCounts
	// Residence merges the residence times of all counted transactions.
	// In the open loop it is the service time (from the actual start);
	// Response (from the intended start) and Lag (actual minus intended
	// start, of every transaction started) are nil in the closed loop.
	// Microseconds, geometry of NewHistogram.
	Residence, Response, Lag *hdr.Histogram
	// Types are the counts and histograms per transaction type, in
	// Config.Types order (nil when the run names no type and times no
	// statement): their counts sum to the totals'.
	Types []TypeResult
}

// add adds o's counts and histograms (added, never averaged) into t.
func (t *Totals) add(o *Totals) {
	t.Committed += o.Committed
	t.Failed += o.Failed
	t.Retries += o.Retries
	t.Reconnects += o.Reconnects
	t.Errors.Add(o.Errors)
	t.Residence.Merge(o.Residence)
	if t.Response != nil && o.Response != nil {
		t.Response.Merge(o.Response)
		t.Lag.Merge(o.Lag)
	}
	t.Types = addTypes(t.Types, o.Types)
}

// CycleResult is one cycle i.
type CycleResult struct {
	// Cycle counts from 1, as i in seed 001.
	Cycle int
	// Start of the cycle and its demanded end Start + Demanded. Threads stop
	// starting transactions at End; a transaction that commits later counts
	// nowhere. Stopped is when the last in-flight transaction had ended.
	Start, End, Stopped time.Time
	Demanded            time.Duration
	// Threads holds one entry per (node, thread), node-major.
	Threads []ThreadResult
	// Totals over the threads.
	Totals
}

// ThreadResult is one thread j of node n in one cycle (seed 001 §2.6).
type ThreadResult struct {
	Node, Thread int
	// Committed is M_inj: transactions that committed inside the cycle.
	Committed int64
	// Failed is E_inj: failed trials rolled back inside the cycle.
	Failed int64
	// Retries counts attempts repeated under Retry.
	Retries int64
	// Late counts transactions that started inside the cycle and committed
	// after its end (at most one per thread in the closed loop): in no cycle.
	Late int64
	// Reconnects counts the attempts to open a session in place of one
	// given up after a transient fault or a failed rollback while the
	// thread ran this cycle, including for a failure just after its end
	// (not the per-attempt sessions of Config.Reconnect, unless they
	// follow a fault). Failed attempts count too: each is also a failed
	// trial in Errors.
	Reconnects int64
	// Errors counts the failed trials by class: they sum to Failed.
	Errors ErrorCounts
	// SumResidence is R_inj, the sum of the counted residence times.
	SumResidence time.Duration
	// Effective is L_inj: from the start of the thread's first transaction
	// in the cycle to the commit of its last counted one (0 if none).
	Effective time.Duration
	// Open loop: intended starts inside the cycle, and those of them not
	// started because the thread was still behind at the cycle's end.
	Intended, Missed int64
	// Residence holds this thread's residence times (microseconds), sparse.
	Residence *hdr.PackedHistogram
	// Targets splits the thread's trials by the cluster node they went to
	// (Config.Targets > 1; nil otherwise), nodes without a trial left out.
	Targets []TargetResult
}

// TPS is T_i (equation 7): committed transactions over the demanded duration.
func (c *CycleResult) TPS() float64 {
	return float64(c.Committed) / c.Demanded.Seconds()
}

// Progress is a snapshot of the running cycle.
type Progress struct {
	Cycle, Cycles int
	// Elapsed time of this cycle, of Duration.
	Elapsed, Duration time.Duration
	// Committed and Failed so far in this cycle.
	Committed, Failed int64
	// TPS is the commit rate since the previous call.
	TPS float64
	// P50, P95 and P99 are the residence times of the transactions
	// committed since the previous call (0 when none did, and from remote
	// agents, whose heartbeats carry counts only).
	P50, P95, P99 time.Duration
	// Errors are this cycle's failed trials by class so far.
	Errors ErrorCounts
	// Types are the commits per transaction type so far in this cycle and
	// their rate since the previous call, when Config.Types names several
	// (nil otherwise); from remote agents, as their heartbeats told them.
	Types []TypeProgress
}

// TypeProgress is one transaction type in a Progress.
type TypeProgress struct {
	Name      string
	Committed int64
	TPS       float64
}

// Details converts the per-thread counts of every completed cycle into the
// rows results.json stores.
func (r *Result) Details() []results.CycleDetail {
	var out []results.CycleDetail
	for _, c := range r.Cycles {
		for _, t := range c.Threads {
			out = append(out, results.CycleDetail{
				Cycle: c.Cycle, Node: t.Node, Thread: t.Thread,
				Committed: t.Committed, Failed: t.Failed, Retries: t.Retries,
				SumS: t.SumResidence.Seconds(), EffectS: t.Effective.Seconds(),
			})
		}
	}
	return out
}

// AddThread appends thread t and counts it into the cycle's totals (its
// histograms are the caller's to merge: they travel apart).
func (c *CycleResult) AddThread(t ThreadResult) {
	c.Threads = append(c.Threads, t)
	c.Committed += t.Committed
	c.Failed += t.Failed
	c.Retries += t.Retries
	c.Reconnects += t.Reconnects
	c.Errors.Add(t.Errors)
}

// Merge adds o, the same cycle run by other threads (another node), into
// c: its threads, counts and histograms (added, never averaged). Times stay
// c's but Stopped, the later of the two.
func (c *CycleResult) Merge(o *CycleResult) {
	c.Threads = append(c.Threads, o.Threads...)
	c.Totals.add(&o.Totals)
	if o.Stopped.After(c.Stopped) {
		c.Stopped = o.Stopped
	}
}

// Interval is the cycle's residence times as one interval of an
// HdrHistogram interval log: from its start to its demanded end, tagged
// cycle<i>.
func (c *CycleResult) Interval() *hdr.Histogram {
	h := hdr.Import(c.Residence.Export())
	h.SetStartTimeMs(c.Start.UnixMilli())
	h.SetEndTimeMs(c.End.UnixMilli())
	h.SetTag(fmt.Sprintf("cycle%d", c.Cycle))
	return h
}
