package nodes

import "github.com/dbgauge/dbgauge/internal/driver"

// typeRates adds the agents' per-type commits of their heartbeats into
// driver.Progress's Types, each type's rate the sum of each live agent's
// gain over the second, as the total's is (an agent lost in between
// leaves the sum without making a rate fall). Used by the progress
// goroutine only.
type typeRates struct {
	names     []string
	committed []int64
	gained    []int64
	prev      map[*agent][]int64
}

// newTypeRates counts the types named (nil for fewer than two: Progress
// then carries no types, as a local run's does not).
func newTypeRates(names []string) *typeRates {
	if len(names) < 2 {
		return nil
	}
	return &typeRates{names: names, prev: map[*agent][]int64{}}
}

// add counts agent a's commits per type, as its last heartbeat told them
// (nil: none told yet).
func (t *typeRates) add(a *agent, counts []int64) {
	if t == nil {
		return
	}
	if t.committed == nil {
		t.committed, t.gained = make([]int64, len(t.names)), make([]int64, len(t.names))
	}
	prev := t.prev[a]
	for k := range min(len(counts), len(t.names)) {
		t.committed[k] += counts[k]
		var p int64
		if k < len(prev) {
			p = prev[k]
		}
		t.gained[k] += max(counts[k]-p, 0)
	}
	t.prev[a] = counts
}

// take is the second's Types over dt seconds, and starts the next.
func (t *typeRates) take(dt float64) []driver.TypeProgress {
	if t == nil {
		return nil
	}
	out := make([]driver.TypeProgress, len(t.names))
	for k, name := range t.names {
		out[k].Name = name
		if t.committed != nil {
			out[k].Committed = t.committed[k]
			if dt > 0 {
				out[k].TPS = float64(t.gained[k]) / dt
			}
		}
	}
	t.committed, t.gained = nil, nil
	return out
}
