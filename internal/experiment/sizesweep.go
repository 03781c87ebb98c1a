package experiment

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

// Kinds of retrieve a size sweep times.
const (
	// RetrieveSingle fetches one tuple by equality on the attribute. This is
	// the default because seed 004 Test 2 found indexed retrieves "nearly
	// constant" over a 1500-fold range of sizes, which only holds when the
	// result does not grow with the relation: the IDM's simple retrieves
	// returned a fixed, small number of tuples. The scan still reads the
	// whole relation, so its time grows linearly, as the seed found.
	RetrieveSingle = "single"
	// RetrievePercent fetches a 1% range (seed 003 §5.1's selections): the
	// result grows with the relation, so indexed times grow too.
	RetrievePercent = "1pct"
)

// SizeSweepPlan is a validated size sweep (docs/experiments.md §2):
// nothing touched yet.
type SizeSweepPlan struct {
	Sizes    []int64  // ascending, distinct, at least 1 (1pct: at least 100)
	Access   []string // results.AccessNone, AccessClustered, AccessNonClustered, in that order
	Retrieve string   // RetrieveSingle or RetrievePercent
	Reps     int      // timed retrieves per size and method
	Warmup   int      // untimed retrieves per size and method before them
	Basis    string   // "mean" (the seed's average) or "median": the time the analysis uses
	Seed     uint64
	// Keep leaves the relations in the database; by default each size's
	// tables are dropped once it is measured, so a sweep never holds more
	// than one size's worth.
	Keep bool
	// NoEngineTime leaves out the engine's own time of the retrieves.
	NoEngineTime bool
}

type sizeSweepRun struct {
	e dbms.Engine
	// clock reads the engine's own time of each retrieve (nil: none, and
	// res.EngineTime says why).
	clock *engineClock
	plan  SizeSweepPlan
	run   *results.Run
	res   *results.SizeSweepResults
	pr    *progress.Printer
	rng   *rand.Rand
	// base is the generated TENKTUP1 the current sizes are cut from.
	base     string
	baseSize int64
	// units are the sizes; done is what a resumed run journalled.
	units *units
	done  *results.Progress
	o     *opened // whose session a unit tried again replaces
}

// RunSizeSweep times the plan's retrieve on a relation of every size under
// every access method, analyses the times and writes the run directory. It
// returns what was measured even when it fails.
func RunSizeSweep(ctx context.Context, s Setup, plan SizeSweepPlan, pr *progress.Printer) (*results.SizeSweepResults, error) {
	embedded := func(dir string) string { return dbms.DefaultURL(filepath.Join(dir, "sizesweep.db")) }
	o, err := open(ctx, s, "sizesweep", plan.Seed, embedded, noCheck)
	if err != nil {
		return nil, err
	}
	defer o.close()
	r := &sizeSweepRun{e: o.e, plan: plan, run: o.run, pr: pr,
		res: &results.SizeSweepResults{
			Header: results.Header{Experiment: "sizesweep", Engine: o.e.Name(), EngineVersion: o.man.Engine.Version}, Retrieve: plan.Retrieve,
			Sizes: plan.Sizes, Access: plan.Access, Reps: plan.Reps, Warmup: plan.Warmup, Seed: plan.Seed, Basis: plan.Basis,
		}}
	if r.res.Basis == "" {
		r.res.Basis = "mean"
	}
	r.units, r.done, r.o = newUnits(s, o.run, &r.res.Header, pr), s.Resume, o
	pr.Line("dbgauge sizesweep on %s %s: %s retrieves, sizes %v, access %v, %d reps (+%d warm-up), run directory %s",
		o.man.Engine.Engine, o.man.Engine.Version, plan.Retrieve, plan.Sizes, plan.Access, plan.Reps, plan.Warmup, o.run.Dir)
	runErr := r.startClock(ctx)
	if runErr == nil {
		runErr = r.measure(ctx)
	}
	if !plan.Keep && r.base != "" {
		r.drop(context.WithoutCancel(ctx), r.base)
	}
	r.analyze()
	runErr = runOutcome(ctx, r.run, runErr, &r.res.Complete, &r.res.Error)
	runErr = andErr(runErr, o.noteEngineTime(engineTimeSession, r.res.EngineTime))
	runErr = andErr(runErr, r.write())
	return r.res, runErr
}

// measure builds and times one size after the other; each size is a unit
// (sizesweep_resume.go).
func (r *sizeSweepRun) measure(ctx context.Context) error {
	for _, n := range r.plan.Sizes {
		if r.restoreSize(n) {
			continue
		}
		kept := len(r.res.Points)
		err := r.units.do(ctx, sizeUnit(n), func(ctx context.Context, try int) error {
			r.res.Points = r.res.Points[:kept] // a failed try's points stay in the journal only
			if try > 0 {
				// After a fault: a new session, and the base loaded again
				// (a server that went away may have lost it).
				err := r.o.reopen(ctx)
				r.e, r.base, r.baseSize = r.o.e, "", 0
				if err == nil {
					err = r.startClock(ctx)
				}
				if err != nil {
					return err
				}
			}
			tables, err := r.prepare(ctx, n)
			if err == nil {
				err = r.timeSize(ctx, n, tables)
			}
			if !r.plan.Keep {
				for _, t := range tables {
					r.drop(context.WithoutCancel(ctx), t.name)
				}
			}
			return err
		})
		if err != nil {
			return fmt.Errorf("size %d: %w", n, err)
		}
	}
	return nil
}

// timeSize runs the warm-up retrieves, then the timed ones: repetition by
// repetition through the methods, the first method moving on by one each
// repetition, so that drift and order hit every method alike.
func (r *sizeSweepRun) timeSize(ctx context.Context, n int64, tables []sweepTable) error {
	r.rng = sizeRand(r.plan.Seed, n)
	pts := make([]*results.SizeSweepPoint, len(tables))
	for _, t := range tables {
		sql, _ := t.retrieve(r.plan.Retrieve, r.key(n))
		r.res.Points = append(r.res.Points, results.SizeSweepPoint{Size: n, Access: t.access, Table: t.name,
			Attribute: t.attr, SQL: sql, Plan: r.explain(ctx, sql), ExpectedRows: t.expected(r.plan.Retrieve)})
	}
	for i := range tables {
		pts[i] = &r.res.Points[len(r.res.Points)-len(tables)+i]
	}
	for w := 0; w < r.plan.Warmup; w++ {
		for _, t := range tables {
			if _, err := r.retrieve(ctx, nil, t, r.key(n)); err != nil {
				return fmt.Errorf("%s warm-up: %w", t.access, err)
			}
		}
	}
	for rep := 0; rep < r.plan.Reps; rep++ {
		key := r.key(n)
		for j := range tables {
			i := (rep + j) % len(tables)
			x, err := r.retrieve(ctx, r.clock, tables[i], key)
			if err != nil {
				return fmt.Errorf("%s rep %d: %w", tables[i].access, rep+1, err)
			}
			pts[i].TimesMS = append(pts[i].TimesMS, x.ms)
			if r.clock != nil {
				addEngineTime(&pts[i].EngineMS, &pts[i].EngineNone, x)
			}
			pts[i].Keys = append(pts[i].Keys, key)
			r.run.Journal().Append(results.SizeSweepRetrieve{Size: n, Access: tables[i].access, Rep: rep + 1, Key: key, MS: x.ms, Rows: x.rows})
			r.pr.Live("N=%d rep %d/%d %s: %.3f ms", n, rep+1, r.plan.Reps, tables[i].access, x.ms)
		}
	}
	for _, p := range pts {
		var sum float64
		for _, x := range p.TimesMS {
			sum += x
		}
		r.pr.Line("N=%-9d %-12s mean %9.3f ms over %d retrieves (%s)", n, p.Access, sum/float64(len(p.TimesMS)), len(p.TimesMS), p.Attribute)
		r.run.Journal().Append(*p) // the size's point, whole: a resumed run takes it back
	}
	return nil
}

// key draws the constant of one repetition: the same for every method, so
// the methods answer the same question.
func (r *sizeSweepRun) key(n int64) int64 {
	return r.rng.Int64N(n - rangeWidth(r.plan.Retrieve, n) + 1)
}

// retrieve times one statement, the only thing inside the timed region:
// every row is fetched to the client, then the count is checked. The
// engine's own time of it is read around it by clock (nil for a
// warm-up), outside the timed region.
func (r *sizeSweepRun) retrieve(ctx context.Context, clock *engineClock, t sweepTable, key int64) (destRun, error) {
	sql, want := t.retrieve(r.plan.Retrieve, key)
	x, err := clock.around(ctx, sql, func() (float64, int64, error) {
		return timed(ctx, func() (int64, error) { return r.e.QueryCount(ctx, sql) })
	})
	if err != nil {
		return destRun{}, err
	}
	if x.rows != want {
		return destRun{}, fmt.Errorf("%s returned %d rows, expected %d: the engine answered a different query", sql, x.rows, want)
	}
	return x, nil
}

// startClock readies the engine's own timing of the session's retrieves.
func (r *sizeSweepRun) startClock(ctx context.Context) error {
	clock, timing, err := startEngineClock(ctx, r.e, engineOff(r.plan.NoEngineTime))
	if err != nil {
		return err
	}
	r.clock = keepTiming(&r.res.EngineTime, clock, timing)
	return nil
}

// explain returns the engine's plan of sql, "" when it cannot show one; a
// failure is a warning, not a reason to stop.
func (r *sizeSweepRun) explain(ctx context.Context, sql string) string {
	ex, ok := r.e.(dbms.Explainer)
	if !ok {
		return ""
	}
	plan, err := ex.Explain(ctx, sql)
	if err != nil {
		r.warn(fmt.Sprintf("explain %s: %v", sql, err))
	}
	return plan
}

func (r *sizeSweepRun) warn(msg string) {
	r.res.Warnings = append(r.res.Warnings, msg)
	r.run.Journal().Append(results.JournalWarning(msg))
	r.pr.Line("warning: %s", msg)
}
