package experiment

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
	"unsafe"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// ABPairBytes is the least memory one pair of a query holds: its
// statement, built for every pair before the pairs run (a string's
// header; the text comes on top), and its four times (the client's and
// the engines', A and B). abtest bounds --reps by it: --reps 1000000000
// asked for 16 GB of statements at once and died of it.
func ABPairBytes() int64 { return int64(unsafe.Sizeof("")) + 4*8 }

// abStage orders the organisations the A/B test builds: each adds to the
// one before (heap; clustered on unique2; plus a B-tree on unique1, which
// serves both the non-clustered queries and the "indexed" ones, as in the
// Wisconsin run).
func abStage(o w.Org) int {
	switch o {
	case w.Heap:
		return 0
	case w.Clustered:
		return 1
	}
	return 2 // NonClustered, Indexed
}

// abQueries are the Wisconsin queries of the plan, first form of each
// number (query 7's clustered one), in the order of their organisations.
func abQueries(nums []int) []w.Query {
	var out []w.Query
	for _, n := range nums {
		if q, err := wisconsinQuery(n); err == nil {
			out = append(out, q)
		}
	}
	slices.SortStableFunc(out, func(a, b w.Query) int { return abStage(a.Org) - abStage(b.Org) })
	return out
}

// wisconsin loads the four relations once (on each database when the
// variants read different ones), then compares every query, building each
// organisation when the first query that needs it comes.
func (r *abRun) wisconsin(ctx context.Context) error {
	n := r.plan.Size
	queries := abQueries(r.plan.Wisconsin)
	var labels []string
	for _, q := range queries {
		labels = append(labels, abLabel(q))
	}
	// A resumed run with every query complete builds nothing; one with
	// queries left loads and organises the relations again (a run killed
	// midway may have left them half built).
	if !r.pending(labels) {
		r.restoreData()
		for _, l := range labels {
			r.restoreQuery(l)
		}
		return nil
	}
	var data *w.Data
	for _, v := range r.databases() {
		d, err := r.load(ctx, v, n)
		if err != nil {
			return err
		}
		data = d
	}
	stage := 0
	for _, q := range queries {
		for stage < abStage(q.Org) {
			stage++
			for _, v := range r.databases() {
				if err := r.organize(ctx, v, n, stage); err != nil {
					return err
				}
			}
		}
		// One generator per query: the constants are the same whatever
		// else was selected, and both variants run the same statements.
		rng := rand.New(rand.NewPCG(r.plan.Seed, uint64(q.Num)<<48^uint64(n)<<8))
		stmts := make([]string, r.plan.Reps)
		var expected int64
		var cols []dbms.Column
		for i := range stmts {
			st, err := q.Build(data, i, rng)
			if err != nil {
				return err
			}
			stmts[i], expected, cols = st.Select, st.Expected, st.Columns
		}
		aq := results.ABQuery{Label: abLabel(q), Num: q.Num, Class: q.Class, Organization: string(q.Org), SQL: stmts[0], ExpectedRows: expected}
		if err := r.compare(ctx, aq, stmts, cols); err != nil {
			return err
		}
	}
	return nil
}

// abLabel is query q's label, the name of its unit.
func abLabel(q w.Query) string { return fmt.Sprintf("Q%d", q.Num) }

// load (re)creates the four relations of base size n on v's database.
func (r *abRun) load(ctx context.Context, v *abVariant, n int64) (*w.Data, error) {
	if err := v.ready(ctx); err != nil {
		return nil, err
	}
	data, err := loadWisconsin(ctx, v.e, n, r.pr, func(lr results.LoadResult) {
		r.res.Loads = append(r.res.Loads, results.ABLoad{Variant: v.name, LoadResult: lr})
		r.run.Journal().Append(results.ABLoadEntry{Variant: v.name, Load: lr})
	})
	if err != nil {
		return nil, fmt.Errorf("variant %s: %w", v.name, err)
	}
	return data, nil
}

// organize takes v's relations to stage 1 (clustered on unique2) or 2 (a
// B-tree on unique1 added).
func (r *abRun) organize(ctx context.Context, v *abVariant, n int64, stage int) error {
	if err := v.ready(ctx); err != nil {
		return err
	}
	org := w.Clustered
	if stage == 2 {
		org = w.NonClustered
	}
	start := time.Now()
	if err := organizeAll(ctx, v.e, n, org); err != nil {
		return fmt.Errorf("variant %s: %w", v.name, err)
	}
	or := results.ABOrganize{Variant: v.name, Organization: string(org), Seconds: time.Since(start).Seconds()}
	r.res.Organize = append(r.res.Organize, or)
	r.run.Journal().Append(or)
	r.pr.Line("variant %s: relations of N=%d organised %s in %.2f s", v.name, n, org, or.Seconds)
	return nil
}

// dropWisconsin removes the relations (--drop); failures are warnings.
func (r *abRun) dropWisconsin(ctx context.Context) {
	for _, v := range r.databases() {
		if err := v.ready(ctx); err != nil {
			r.warn(err.Error())
			continue
		}
		for _, rel := range w.Relations {
			if err := v.e.DropTable(ctx, w.TableName(rel, r.plan.Size)); err != nil {
				r.warn(fmt.Sprintf("variant %s: drop %s: %v", v.name, w.TableName(rel, r.plan.Size), err))
			}
		}
	}
}
