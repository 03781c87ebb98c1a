package stats

import (
	"fmt"
	"math"
	"sort"
)

// The four scale ranges of seed 001 §5.1, named from a measured curve.

// ScaleRange is one named range of scales. Same fields as
// results.ScaleRange: the caller converts with results.ScaleRange(r).
type ScaleRange struct {
	Name   string `json:"name"` // collision, core, cut-off, storage
	From   int64  `json:"from_scale"`
	To     int64  `json:"to_scale"`
	Reason string `json:"reason"`
}

// RangeCurve is what ScaleRanges reads: the scales run with their median
// rates, the number of concurrent clients (nodes x threads, at least 1) and
// whether its writing transactions collide on one row per unit of scale
// (TPC-B's branch; a load that writes nothing takes no row locks, so it
// has no collision range).
type RangeCurve struct {
	Scales  []int64
	Medians []float64
	Failed  []int64 // failed trials per scale; optional (nil)
	Clients int
	Writes  bool
}

// Names of the ranges, as seed 001 §5.1 numbers them #1-#4.
const (
	RangeCollision = "collision"
	RangeCore      = "core"
	RangeCutOff    = "cut-off"
	RangeStorage   = "storage"
)

// ScaleRanges names the ranges of seed 001 §5.1 on the measured curve.
// Neighbouring ranges share their boundary scale, as in the seed
// (1..NxJ, NxJ..500, 500..1000, >= 1000):
//   - collision (#1, writes only): from the smallest scale to the largest
//     scale <= clients, where there are no more branches than clients;
//   - cut-off (#3): from the last scale before the rate first falls to a
//     tenth of its maximum or less (searching after the maximum) to that
//     scale;
//   - core (#2): from the end of the collision range (or the first scale) to
//     the start of the cut-off (or the last scale when there is none);
//   - storage (#4): from the end of the cut-off to the last scale.
//
// A range that the scales run do not reach is left out; the core range is
// left out when it would be a single scale already named collision.
func ScaleRanges(c RangeCurve) ([]ScaleRange, error) {
	n := len(c.Scales)
	if n != len(c.Medians) || (c.Failed != nil && len(c.Failed) != n) {
		return nil, fmt.Errorf("scale ranges: %d scales, %d rates, %d failed counts", n, len(c.Medians), len(c.Failed))
	}
	if n == 0 {
		return nil, fmt.Errorf("scale ranges: no scales")
	}
	clients := max(c.Clients, 1)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
		if m := c.Medians[i]; math.IsNaN(m) || m < 0 {
			return nil, fmt.Errorf("scale ranges: rate %v at scale %d", m, c.Scales[i])
		}
	}
	sort.Slice(idx, func(a, b int) bool { return c.Scales[idx[a]] < c.Scales[idx[b]] })
	x := func(k int) int64 { return c.Scales[idx[k]] }
	t := func(k int) float64 { return c.Medians[idx[k]] }

	kmax := 0
	for k := 1; k < n; k++ {
		if t(k) > t(kmax) {
			kmax = k
		}
	}
	cut := -1 // first sorted index after the maximum at a tenth of it or less
	for k := kmax + 1; k < n; k++ {
		if t(k) <= t(kmax)/10 {
			cut = k
			break
		}
	}
	lastColl := -1 // last sorted index with scale <= clients
	if c.Writes {
		for k := 0; k < n && x(k) <= int64(clients); k++ {
			lastColl = k
		}
	}

	var out []ScaleRange
	if lastColl >= 0 {
		reason := fmt.Sprintf("scale <= nodes x threads = %d: no more rows of the table with one per unit of scale (a branch, a warehouse) than concurrent clients, so colliding updates wait or roll back", clients)
		if c.Failed != nil {
			var f int64
			for k := 0; k <= lastColl; k++ {
				f += c.Failed[idx[k]]
			}
			reason += fmt.Sprintf(" (%d failed trials here)", f)
		}
		out = append(out, ScaleRange{RangeCollision, x(0), x(lastColl), reason})
	}
	coreFrom, coreTo := max(lastColl, 0), n-1
	if cut >= 0 {
		coreTo = cut - 1
	}
	if coreTo > coreFrom || lastColl < 0 {
		reason := fmt.Sprintf("rate within an order of magnitude of its maximum %.4g tps (at scale %d): the database is served from memory, the core (CPU, memory, and for writes the commit path) sets the rate", t(kmax), x(kmax))
		if cut < 0 {
			reason += "; no cut-off up to the largest scale run"
		}
		out = append(out, ScaleRange{RangeCore, x(coreFrom), x(coreTo), reason})
	}
	if cut >= 0 {
		out = append(out, ScaleRange{RangeCutOff, x(cut - 1), x(cut),
			fmt.Sprintf("rate falls from %.4g tps to %.4g tps, at most a tenth of its maximum %.4g tps: the database stops fitting in memory", t(cut-1), t(cut), t(kmax))})
		out = append(out, ScaleRange{RangeStorage, x(cut), x(n - 1),
			fmt.Sprintf("beyond the cut-off (rate %.4g..%.4g tps): transactions wait for the storage", minOver(t, cut, n), maxOver(t, cut, n))})
	}
	return out, nil
}

func minOver(t func(int) float64, from, to int) float64 {
	m := math.Inf(1)
	for k := from; k < to; k++ {
		m = math.Min(m, t(k))
	}
	return m
}

func maxOver(t func(int) float64, from, to int) float64 {
	m := math.Inf(-1)
	for k := from; k < to; k++ {
		m = math.Max(m, t(k))
	}
	return m
}
