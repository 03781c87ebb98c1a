package experiment

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/results"
)

// An A/B test's unit is a pair: A then B executing one statement in one
// cache mode (the warm-up before a query's first warm pair measured in a
// run's part included). A query whose every cache mode ran is a unit
// made of its pairs. When a run is resumed, a completed query is taken
// back from the journal whole, and a query that stopped midway keeps its
// completed pairs and goes on from the first pair that did not complete.
// The statements of a query come from the run's seed, the query and the
// size (abRun.wisconsin), not from the queries run before it.

// abPairUnit names pair i (from 0) of a query in a cache mode.
func abPairUnit(label, cache string, i int) string {
	return fmt.Sprintf("%s %s pair %d", label, cache, i+1)
}

// restoreQuery takes a completed query back from a resumed run's
// journal; false when the run is new or the query did not complete.
func (r *abRun) restoreQuery(label string) bool {
	if r.done == nil || !r.units.completed(label) {
		return false
	}
	qs := results.UnitEntries[results.ABQuery](r.done, label, results.ABQuery{}.JournalKind())
	if len(qs) == 0 {
		return false
	}
	r.res.Queries = append(r.res.Queries, qs[len(qs)-1])
	r.pr.Line("%-6s complete before the run was resumed: kept", label)
	return true
}

// restorePair takes a completed pair's times and rows (A's, B's) back
// from a resumed run's journal: the last execution of each variant that
// succeeded (a try that failed comes before it).
func (r *abRun) restorePair(unit string) (ms [2]float64, rows [2]int64, ok bool) {
	if r.done == nil || !r.units.completed(unit) {
		return ms, rows, false
	}
	var seen [2]bool
	for _, x := range results.UnitEntries[results.ABExecution](r.done, unit, results.ABExecution{}.JournalKind()) {
		if x.Kind != "pair" || x.Error != "" {
			continue
		}
		j := 0
		if x.Variant == r.b.name {
			j = 1
		}
		ms[j], rows[j], seen[j] = x.MS, x.Rows, true
	}
	return ms, rows, seen[0] && seen[1]
}

// pending tells whether any of the queries labelled is still to be
// measured: else a resumed run neither loads nor organises the relations.
func (r *abRun) pending(labels []string) bool {
	for _, l := range labels {
		if !r.units.completed(l) {
			return true
		}
	}
	return false
}

// restoreData takes the loads and organisations of the relations back
// from a resumed run's journal, when it need not build them again: the
// last of each per variant.
func (r *abRun) restoreData() {
	if r.done == nil {
		return
	}
	type key struct{ variant, what string }
	load, org := map[key]int{}, map[key]int{}
	results.Decode(r.done, results.ABLoadEntry{}.JournalKind(), func(_ int, e results.ABLoadEntry) {
		k := key{e.Variant, e.Load.Table}
		if i, ok := load[k]; ok {
			r.res.Loads[i] = results.ABLoad{Variant: e.Variant, LoadResult: e.Load}
			return
		}
		load[k] = len(r.res.Loads)
		r.res.Loads = append(r.res.Loads, results.ABLoad{Variant: e.Variant, LoadResult: e.Load})
	})
	results.Decode(r.done, results.ABOrganize{}.JournalKind(), func(_ int, e results.ABOrganize) {
		k := key{e.Variant, e.Organization}
		if i, ok := org[k]; ok {
			r.res.Organize[i] = e
			return
		}
		org[k] = len(r.res.Organize)
		r.res.Organize = append(r.res.Organize, e)
	})
}
