package driver

import (
	"slices"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Targets: a load spread over the nodes of a replicated cluster. Open
// places each session on a node and says which (Session.Target); a
// session that fails over to another node says so when it is opened
// again. Every trial is then also counted for the node its session was
// on when it ran: the residence times of a cycle per node.

// TargetResult is what one thread (or a cycle, over its threads) did on
// one target.
type TargetResult struct {
	// Target is the node, 0-based, in the order of the URL's hosts.
	Target            int
	Committed, Failed int64
	Errors            ErrorCounts
	SumResidence      time.Duration
	// Residence holds the committed transactions' residence times
	// (microseconds).
	Residence *hdr.Histogram
}

// Add adds o's counts and residence times into t (t.Residence must be
// set): the same target over more threads or cycles.
func (t *TargetResult) Add(o TargetResult) {
	t.Committed += o.Committed
	t.Failed += o.Failed
	t.Errors.Add(o.Errors)
	t.SumResidence += o.SumResidence
	if o.Residence != nil {
		t.Residence.Merge(o.Residence)
	}
}

// targetTally is a worker's counts per target in one cycle; nil slices
// when the load has one target, so a commit pays one nil check.
type targetTally struct {
	committed, failed []int64
	errors            []ErrorCounts
	sumResidence      []time.Duration
	res               []*hdr.Histogram
}

func newTargetTally(targets int) targetTally {
	t := targetTally{
		committed: make([]int64, targets), failed: make([]int64, targets),
		errors: make([]ErrorCounts, targets), sumResidence: make([]time.Duration, targets),
		res: make([]*hdr.Histogram, targets),
	}
	for i := range t.res {
		t.res[i] = NewHistogram()
	}
	return t
}

// target is where s's trials count: its Target, kept inside the range
// Open was told of.
func (t *targetTally) target(s *Session) int {
	return min(max(s.Target, 0), len(t.committed)-1)
}

// take returns the thread's per-target results of the cycle (targets
// without a trial left out) and resets the counts.
func (t *targetTally) take() []TargetResult {
	var out []TargetResult
	for i := range t.committed {
		if t.committed[i] == 0 && t.failed[i] == 0 {
			continue
		}
		h := NewHistogram()
		h.Merge(t.res[i])
		out = append(out, TargetResult{Target: i, Committed: t.committed[i], Failed: t.failed[i],
			Errors: t.errors[i], SumResidence: t.sumResidence[i], Residence: h})
		t.committed[i], t.failed[i], t.sumResidence[i] = 0, 0, 0
		t.errors[i] = ErrorCounts{}
		t.res[i].Reset()
	}
	return out
}

// ByTarget adds the threads' per-target results up per target, in
// target order: the cycle on each node.
func (c *CycleResult) ByTarget() []TargetResult {
	var out []TargetResult
	at := map[int]int{}
	for _, th := range c.Threads {
		for _, tr := range th.Targets {
			i, ok := at[tr.Target]
			if !ok {
				i = len(out)
				at[tr.Target] = i
				out = append(out, TargetResult{Target: tr.Target, Residence: NewHistogram()})
			}
			out[i].Add(tr)
		}
	}
	slices.SortFunc(out, func(a, b TargetResult) int { return a.Target - b.Target })
	return out
}
