package experiment

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// pageSizes runs the selections and joins on a new database per page size:
// a page size is chosen when a database is created (dbms.PageSizer). The
// databases sit beside the one --db names and are removed afterwards.
func (r *speedupRun) pageSizes(ctx context.Context) error {
	u, err := dbms.ParseURL(r.url)
	if err != nil {
		return err
	}
	part := r.res.PageSize
	if sz, ok := r.e.(dbms.PageSizer); ok {
		part.Knob = sz.PageSizeKnob()
	}
	for _, ps := range r.plan.PageSizes {
		e, drop, err := r.pageDB(ctx, u, ps)
		if err != nil {
			return fmt.Errorf("page size %d: %w", ps, err)
		}
		err = r.pageSizeRun(ctx, e, ps)
		e.Close()
		if derr := drop(); derr != nil {
			r.warn(fmt.Sprintf("page size %d: removing its database: %v", ps, derr))
		}
		if err != nil {
			return fmt.Errorf("page size %d: %w", ps, err)
		}
	}
	return nil
}

// pageSizeRun loads and measures one page size's database; curve i of the
// part gets the point of the i-th query (the queries come in the same
// order, with the same constants, at every page size).
func (r *speedupRun) pageSizeRun(ctx context.Context, e dbms.Engine, ps int64) error {
	actual, err := pageBytes(ctx, e)
	if err != nil {
		return err
	}
	if actual != ps {
		return fmt.Errorf("the new database has pages of %d bytes, not %d (the engine refused the page size)", actual, ps)
	}
	r.pr.Line("page size %d bytes: database created", ps)
	d, err := r.loadAll(ctx, e)
	if err != nil {
		return err
	}
	if actual, err = pageBytes(ctx, e); err != nil {
		return err
	}
	i := 0
	part := r.res.PageSize
	for _, org := range speedupOrgs {
		if err := r.organize(ctx, e, org); err != nil {
			return err
		}
		qs, err := speedupQueries(d, org, r.plan.Seed)
		if err != nil {
			return err
		}
		for _, q := range qs {
			if i == len(part.Curves) {
				part.Curves = append(part.Curves, newCurve(q))
			}
			pt, err := r.point(ctx, "page_size", e, q, ps, nil)
			pt.PageBytes = actual
			part.Curves[i].Points = append(part.Curves[i].Points, pt)
			i++
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// pageBytes is the page size of the database e is attached to.
func pageBytes(ctx context.Context, e dbms.Engine) (int64, error) {
	sz, ok := e.(dbms.PageSizer)
	if !ok {
		return 0, fmt.Errorf("read the page size: %s", pageSizeNotApplicable(e))
	}
	return sz.PageSize(ctx)
}

// pageDB creates the database of page size ps and opens it; drop removes it.
func (r *speedupRun) pageDB(ctx context.Context, u *dbms.URL, ps int64) (dbms.Engine, func() error, error) {
	if sz, ok := r.e.(dbms.PageSizer); ok {
		return sz.CreatePageSizeDB(ctx, u, ps)
	}
	return nil, nil, fmt.Errorf("%s: %s", r.e.Name(), pageSizeNotApplicable(r.e))
}
