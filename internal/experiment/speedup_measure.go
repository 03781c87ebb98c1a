package experiment

import (
	"context"
	"fmt"
	"math"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

func newCurve(q speedupQuery) results.SpeedupCurve {
	return results.SpeedupCurve{Query: q.num, Class: q.class, Org: string(q.org), Attribute: q.attribute, SQL: q.sql, Expected: q.expected}
}

func (q speedupQuery) label() string {
	if q.num == 0 {
		return fmt.Sprintf("%s (%s, %s)", q.class, q.org, q.attribute)
	}
	return fmt.Sprintf("Q%d %s (%s, %s)", q.num, q.class, q.org, q.attribute)
}

// parallelCurve runs q at every p with the total memory constant and
// computes the speedups against the reference p.
func (r *speedupRun) parallelCurve(ctx context.Context, q speedupQuery) (results.SpeedupCurve, error) {
	c := newCurve(q)
	for _, p := range r.plan.Parallelism {
		pt, err := r.point(ctx, "parallelism", r.e, q, int64(p), parallelSettings(r.e, p, r.plan.Memory))
		c.Points = append(c.Points, pt)
		if err != nil {
			return c, err
		}
		// Only an engine whose plan reports workers (dbms.PlanAnalyzer)
		// plans more than 0.
		if pt.WorkersPlanned > 0 && pt.WorkersLaunched < p-1 {
			r.warn(fmt.Sprintf("%s at p=%d: %d of %d planned workers launched (max_parallel_workers or max_worker_processes)", q.label(), p, pt.WorkersLaunched, pt.WorkersPlanned))
		}
	}
	speedups(&c, r.plan.Ref)
	return c, nil
}

// speedups fills Speedup and Ideal from the medians.
func speedups(c *results.SpeedupCurve, ref int) {
	ps := make([]int, len(c.Points))
	ts := make([]float64, len(c.Points))
	for i, pt := range c.Points {
		ps[i], ts[i] = int(pt.X), pt.MedianMS
		if pt.Error != "" || len(pt.TimesMS) == 0 {
			ts[i] = math.NaN()
		}
	}
	sp, err := stats.Speedups(ps, ts, ref)
	if err != nil {
		return // the reference point failed: no speedups to give
	}
	for i := range c.Points {
		c.Points[i].Speedup = sp[i]
		c.Points[i].Ideal = stats.IdealSpeedup(ps[i], ref)
	}
}

// memoryCurve runs join q at every memory of the sweep, at the sweep's p.
func (r *speedupRun) memoryCurve(ctx context.Context, q speedupQuery) (results.SpeedupCurve, error) {
	c := newCurve(q)
	for _, m := range r.plan.MemorySweep {
		pt, err := r.point(ctx, "memory", r.e, q, m, parallelSettings(r.e, r.plan.SweepP, m))
		c.Points = append(c.Points, pt)
		if err != nil {
			return c, err
		}
	}
	return c, nil
}

// point measures q at x (a degree of parallelism, a memory, a page size;
// variable says which) on e as a unit: a point a resumed run completed is
// taken back from the journal, and under --pause-on-error a point that
// failed with a fault is measured again, on a new session when e is the
// run's own (a page size's database keeps its session).
func (r *speedupRun) point(ctx context.Context, variable string, e dbms.Engine, q speedupQuery, x int64, settings []string) (results.SpeedupPoint, error) {
	unit := speedupUnit(variable, q, x)
	if pt, ok := r.restorePoint(unit); ok {
		r.pr.Line("%-50s x=%-10d complete before the run was resumed: kept", q.label(), x)
		return pt, nil
	}
	var pt results.SpeedupPoint
	err := r.units.do(ctx, unit, func(ctx context.Context, try int) error {
		if try > 0 && e == r.e {
			if err := r.reopen(ctx); err != nil {
				return err
			}
			e = r.e
		}
		var err error
		pt, err = r.measurePoint(ctx, e, q, x, settings)
		return err
	})
	return pt, err
}

// measurePoint sets the session, runs q once untimed (the warm-up that
// also says what the engine did), then Reps timed repetitions, each
// checked against the expected count.
func (r *speedupRun) measurePoint(ctx context.Context, e dbms.Engine, q speedupQuery, x int64, settings []string) (results.SpeedupPoint, error) {
	pt := results.SpeedupPoint{X: x, Settings: settings, WorkersPlanned: -1, WorkersLaunched: -1, HashBatches: -1, TempBytes: -1}
	fail := func(err error) (results.SpeedupPoint, error) {
		if dbms.Classify(err).Transient() {
			// The engine's words ("postmaster exited during a parallel
			// transaction") do not say that the session is gone.
			err = fmt.Errorf("connection lost: %w", err)
		}
		pt.Error = err.Error()
		r.run.Journal().Append(results.SpeedupPointEntry{Query: q.label(), Point: pt})
		return pt, fmt.Errorf("%s at %d: %w", q.label(), x, err)
	}
	if err := applySettings(ctx, e, settings); err != nil {
		return fail(err)
	}
	facts, temp, err := warmup(ctx, e, q, r.plan.Dest)
	if err != nil {
		return fail(fmt.Errorf("warm-up: %w", err))
	}
	pt.WorkersPlanned, pt.WorkersLaunched, pt.HashBatches, pt.TempBytes = facts.WorkersPlanned, facts.WorkersLaunched, facts.HashBatches, temp
	clock, timing, err := startEngineClock(ctx, e, engineOff(r.plan.NoEngineTime))
	if err != nil {
		return fail(err)
	}
	pt.EngineNone = timing.None
	if clock = keepTiming(&r.res.EngineTime, clock, timing); clock == nil && pt.EngineNone == "" {
		pt.EngineNone = "this point's session times otherwise than the run's first"
	}
	for i := 0; i < r.plan.Reps; i++ {
		x, err := intoDestTimed(ctx, e, clock, q.sql, q.columns, r.plan.Dest)
		if err != nil {
			return fail(err)
		}
		if x.rows != q.expected {
			return fail(fmt.Errorf("%d rows, expected %d: the engine answered a different query", x.rows, q.expected))
		}
		pt.TimesMS = append(pt.TimesMS, x.ms)
		pt.Rows = x.rows
		addEngineTime(&pt.EngineMS, &pt.EngineNone, x)
	}
	s := stats.Summarize(pt.TimesMS)
	pt.MedianMS, pt.MinMS, pt.MaxMS = s.Median, s.Min, s.Max
	if len(pt.EngineMS) > 0 {
		pt.EngineMedianMS = stats.Median(pt.EngineMS)
	}
	pt.RSD = stats.RSD(pt.TimesMS)
	r.run.Journal().Append(results.SpeedupPointEntry{Query: q.label(), Point: pt})
	extra := ""
	if pt.WorkersLaunched >= 0 {
		extra += fmt.Sprintf("  workers %d/%d", pt.WorkersLaunched, pt.WorkersPlanned)
	}
	if pt.HashBatches >= 0 {
		extra += fmt.Sprintf("  hash batches %d", pt.HashBatches)
	}
	if pt.TempBytes >= 0 {
		extra += fmt.Sprintf("  temp %d B", pt.TempBytes)
	}
	r.pr.Line("%-50s x=%-10d median %9.2f ms%s", q.label(), x, pt.MedianMS, extra)
	return pt, nil
}
