package experiment

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/timing"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// A Wisconsin run's unit is a query result: every repetition of one query
// at one size, organisation and destination. When a run is resumed, a
// size whose query results all completed is taken back from the journal
// (its loads and organisations too) and not loaded again; a size with
// some left is loaded and organised again from the start (relations of
// an interrupted run are not trusted), and only its query results that
// did not complete run. Every query's constants come from a generator
// seeded by the run's seed, the query, the size and the organisation, so
// a resumed query draws what an uninterrupted run would.

// wisconsinUnit names a query result's unit in the journal.
func wisconsinUnit(n int64, q w.Query, dest string) string {
	return fmt.Sprintf("N=%d %s Q%d %s", n, q.Org, q.Num, dest)
}

// wisconsinDone is what a stopped run journalled, for its completed units.
type wisconsinDone struct {
	queries map[string]results.QueryResult // by unit
	loads   map[int64][]results.LoadResult // by size, in load order
	orgs    map[string]results.OrganizeResult
	qacs    map[string]timing.QaC // by unit, under the timing protocol
}

// orgKey identifies an organisation step of a size.
func orgKey(n int64, org string) string { return fmt.Sprintf("%d %s", n, org) }

// doneWisconsin reads the journal of a stopped run; nil for a new run.
// Later entries replace earlier ones of the same load, organisation or
// query (a size loaded again after the run was resumed).
func doneWisconsin(p *results.Progress) *wisconsinDone {
	if p == nil {
		return nil
	}
	d := &wisconsinDone{queries: map[string]results.QueryResult{}, loads: map[int64][]results.LoadResult{}, orgs: map[string]results.OrganizeResult{}, qacs: map[string]timing.QaC{}}
	results.Decode(p, results.WisconsinQaC{}.JournalKind(), func(_ int, q results.WisconsinQaC) {
		d.qacs[q.Unit] = q.QaC // a later try replaces an earlier one
	})
	results.Decode(p, results.QueryResult{}.JournalKind(), func(_ int, qr results.QueryResult) {
		q := w.Query{Num: qr.Query, Org: w.Org(qr.Organization)}
		d.queries[wisconsinUnit(qr.Size, q, qr.Destination)] = qr
	})
	results.Decode(p, results.LoadResult{}.JournalKind(), func(_ int, lr results.LoadResult) {
		ls := d.loads[lr.Size]
		for i := range ls {
			if ls[i].Relation == lr.Relation {
				ls = ls[:i] // loaded again: the later loads replace these
				break
			}
		}
		d.loads[lr.Size] = append(ls, lr)
	})
	results.Decode(p, results.OrganizeResult{}.JournalKind(), func(_ int, or results.OrganizeResult) {
		d.orgs[orgKey(or.Size, or.Organization)] = or
	})
	return d
}

// sizeDone tells whether every unit of size n completed before the run
// stopped (and the journal holds them).
func (r *wisconsinRun) sizeDone(n int64) bool {
	if r.done == nil {
		return false
	}
	for _, org := range w.Orgs {
		for _, q := range r.queriesOf(org) {
			for _, dest := range r.destinations(q) {
				if _, ok := r.done.queries[wisconsinUnit(n, q, dest)]; !ok || !r.units.completed(wisconsinUnit(n, q, dest)) {
					return false
				}
			}
		}
	}
	return true
}

// restoreSize takes a completed size back from the journal, in the order
// an uninterrupted run stores it.
func (r *wisconsinRun) restoreSize(n int64) {
	r.res.Loads = append(r.res.Loads, r.done.loads[n]...)
	r.bufferRatio(n)
	for _, org := range w.Orgs {
		qs := r.queriesOf(org)
		if len(qs) == 0 {
			continue
		}
		if or, ok := r.done.orgs[orgKey(n, string(org))]; ok {
			r.res.Organize = append(r.res.Organize, or)
		}
		for _, q := range qs {
			for _, dest := range r.destinations(q) {
				r.res.Queries = append(r.res.Queries, r.done.queries[wisconsinUnit(n, q, dest)])
				r.ttpRestore(wisconsinUnit(n, q, dest))
			}
		}
	}
	r.pr.Line("N=%-9d complete before the run was resumed: kept", n)
}

// restoredQuery is a completed unit's query result, if the run was
// resumed after it.
func (r *wisconsinRun) restoredQuery(n int64, q w.Query, dest string) (results.QueryResult, bool) {
	unit := wisconsinUnit(n, q, dest)
	if r.done == nil || !r.units.completed(unit) {
		return results.QueryResult{}, false
	}
	qr, ok := r.done.queries[unit]
	return qr, ok
}
