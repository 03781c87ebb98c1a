package experiment

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dbgauge/dbgauge/internal/results"

	"github.com/dbgauge/dbgauge/internal/dbms"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// organize brings the relations of size n into org. The steps are
// cumulative in the order of w.Orgs: heap; hash (a hash index on unique2 of
// A and B, removed afterwards); clustered (ordered on unique2 with an index on
// it); nonclustered and indexed (plus a secondary index on unique1: seed 000
// ran its non-clustered and "with indices" queries with all indices built).
// A returned reason means the engine cannot build org: its queries are not
// applicable. An error is a failure that stops the run.
func (r *wisconsinRun) organize(ctx context.Context, n int64, org w.Org) (string, error) {
	start := time.Now()
	reason, err := r.organizeSteps(ctx, n, org)
	or := results.OrganizeResult{Size: n, Organization: string(org), Seconds: time.Since(start).Seconds(), Status: results.StatusOK}
	switch {
	case err != nil && errors.Is(err, dbms.ErrNotSupported):
		reason, err = err.Error(), nil
		fallthrough
	case reason != "":
		or.Status, or.Reason = results.StatusNotApplicable, reason
	case err != nil && ctx.Err() != nil:
		or.Status, or.Reason = results.StatusInterrupted, interrupted(ctx).Error()
	case err != nil:
		or.Status, or.Reason = results.StatusError, err.Error()
	}
	r.res.Organize = append(r.res.Organize, or)
	r.run.Journal().Append(or)
	if err != nil {
		return "", fmt.Errorf("N=%d organisation %s: %w", n, org, err)
	}
	r.pr.Line("N=%-9d organisation %-12s %7.2f s  %s %s", n, org, or.Seconds, or.Status, or.Reason)
	return reason, nil
}

func (r *wisconsinRun) organizeSteps(ctx context.Context, n int64, org w.Org) (string, error) {
	switch org {
	case w.Heap:
		return "", nil
	case w.Hash:
		for _, rel := range []w.Relation{w.Tenktup1, w.Tenktup2} {
			t := w.TableName(rel, n)
			if err := r.e.CreateIndex(ctx, t, t+"_h2", "unique2", dbms.Hash, false); err != nil {
				return "", err
			}
			if err := r.e.Analyze(ctx, t); err != nil {
				return "", err
			}
		}
		return "", nil
	case w.Clustered:
		return "", r.cluster(ctx, n)

	case w.NonClustered, w.Indexed:
		if err := r.cluster(ctx, n); err != nil {
			return "", err
		}
		if r.hasUnique1[n] {
			return "", nil
		}
		for _, rel := range w.Relations {
			t := w.TableName(rel, n)
			if err := r.e.CreateIndex(ctx, t, t+"_u1", "unique1", dbms.BTree, true); err != nil {
				return "", err
			}
			if err := r.e.Analyze(ctx, t); err != nil {
				return "", err
			}
		}
		r.hasUnique1[n] = true
		return "", nil
	}
	return "", fmt.Errorf("unknown organisation %q", org)
}

func (r *wisconsinRun) cluster(ctx context.Context, n int64) error {
	if r.isClustered[n] {
		return nil
	}
	for _, rel := range w.Relations {
		t := dbms.Table{Name: w.TableName(rel, n), Columns: w.Columns()}
		if err := r.e.Cluster(ctx, t, t.Name+"_u2", "unique2"); err != nil {
			return err
		}
		if err := r.e.Analyze(ctx, t.Name); err != nil {
			return err
		}
	}
	r.isClustered[n] = true
	return nil
}

// dropHash removes the hash indexes again so later organisations start from
// the heap.
func (r *wisconsinRun) dropHash(ctx context.Context, n int64) error {
	for _, rel := range []w.Relation{w.Tenktup1, w.Tenktup2} {
		t := w.TableName(rel, n)
		if err := r.e.DropIndex(ctx, t, t+"_h2"); err != nil {
			return fmt.Errorf("drop hash index on %s: %w", t, err)
		}
	}
	return nil
}
