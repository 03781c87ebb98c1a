package experiment

import (
	"context"
	"path/filepath"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// SpeedupPlan is a validated speedup run (docs/experiments.md §4, seed 003
// §5.2, §6.2): nothing touched yet. At least one of Parallelism,
// MemorySweep and PageSizes is set.
type SpeedupPlan struct {
	// Parallelism are the degrees of parallelism p, ascending: the number
	// of processes (threads) working on one query, the leader included.
	Parallelism []int
	// Ref is the reference p of the speedups (one of Parallelism).
	Ref int
	// Memory is the total memory held constant across p, in bytes.
	Memory int64
	// MemorySweep are total join memories in bytes, descending, run at
	// parallelism SweepP.
	MemorySweep []int64
	SweepP      int
	// PageSizes are page sizes in bytes, ascending.
	PageSizes []int64
	Size      int64
	Reps      int
	Seed      uint64
	// Dest is where each result goes: results.DestRelation (stored, the
	// seeds' way and the default) or results.DestCount.
	Dest string
	// NoEngineTime leaves out the engine's own time of the repetitions.
	NoEngineTime bool
}

type speedupRun struct {
	e    dbms.Engine
	url  string
	plan SpeedupPlan
	run  *results.Run
	res  *results.SpeedupResults
	pr   *progress.Printer
	// units are the points (speedup_resume.go); done is what a resumed
	// run journalled; o holds the session a point tried again replaces.
	units *units
	done  *results.Progress
	o     *opened
}

// RunSpeedup loads the Wisconsin relations, runs the selections and joins
// at every degree of parallelism (and memory, and page size, as asked) and
// writes the run directory. It returns what was measured even when it fails.
func RunSpeedup(ctx context.Context, s Setup, plan SpeedupPlan, pr *progress.Printer) (*results.SpeedupResults, error) {
	embedded := func(dir string) string { return dbms.DefaultURL(filepath.Join(dir, "speedup.db")) }
	o, err := open(ctx, s, "speedup", plan.Seed, embedded, noCheck)
	if err != nil {
		return nil, err
	}
	defer o.close()
	r := &speedupRun{e: o.e, url: o.url, plan: plan, run: o.run, pr: pr, res: &results.SpeedupResults{
		Header: results.Header{Experiment: "speedup", Engine: o.e.Name(), EngineVersion: o.man.Engine.Version},
		Size:   plan.Size, Reps: plan.Reps, Seed: plan.Seed, Destination: plan.Dest,
	}}
	r.units, r.done, r.o = newUnits(s, o.run, &r.res.Header, pr), s.Resume, o
	pr.Line("dbgauge speedup on %s %s: Wisconsin N=%d, %d repetitions per point, run directory %s",
		o.man.Engine.Engine, o.man.Engine.Version, plan.Size, plan.Reps, o.run.Dir)
	runErr := r.measure(ctx)
	runErr = runOutcome(ctx, r.run, runErr, &r.res.Complete, &r.res.Error)
	runErr = andErr(runErr, o.noteEngineTime(engineTimeSession, r.res.EngineTime))
	runErr = andErr(runErr, r.write())
	return r.res, runErr
}

// measure runs the three parts. Parallelism and memory share one load of
// the relations in the given database; page sizes need a new database per
// page size.
func (r *speedupRun) measure(ctx context.Context) error {
	engine := r.e.Name()
	if len(r.plan.Parallelism) > 0 {
		r.res.Speedup = &results.SpeedupPart{Variable: "parallelism", Ref: r.plan.Ref, MemoryBytes: r.plan.Memory}
		for _, p := range r.plan.Parallelism {
			r.res.Speedup.Values = append(r.res.Speedup.Values, int64(p))
		}
		r.res.Speedup.Reason = parallelNotApplicable(r.e)
		r.res.Speedup.Applicable = r.res.Speedup.Reason == ""
	}
	if len(r.plan.MemorySweep) > 0 {
		r.res.Memory = &results.SpeedupPart{Variable: "memory", Values: r.plan.MemorySweep, P: r.plan.SweepP}
		r.res.Memory.Reason = memoryNotApplicable(r.e)
		r.res.Memory.Applicable = r.res.Memory.Reason == ""
	}
	if len(r.plan.PageSizes) > 0 {
		r.res.PageSize = &results.SpeedupPart{Variable: "page_size", Values: r.plan.PageSizes}
		r.res.PageSize.Reason = pageSizeNotApplicable(r.e)
		r.res.PageSize.Applicable = r.res.PageSize.Reason == ""
	}
	for _, part := range []*results.SpeedupPart{r.res.Speedup, r.res.Memory, r.res.PageSize} {
		if part != nil && !part.Applicable {
			r.pr.Line("%s on %s: not applicable: %s", part.Variable, engine, part.Reason)
		}
	}
	sp := r.res.Speedup != nil && r.res.Speedup.Applicable
	mem := r.res.Memory != nil && r.res.Memory.Applicable
	if sp || mem {
		if err := r.onEngine(ctx, sp, mem); err != nil {
			return err
		}
	}
	if r.res.PageSize != nil && r.res.PageSize.Applicable {
		return r.pageSizes(ctx)
	}
	return nil
}

// onEngine loads the relations into the given database and runs the
// parallelism and memory parts organisation by organisation.
func (r *speedupRun) onEngine(ctx context.Context, sp, mem bool) error {
	d, err := r.loadAll(ctx, r.e)
	if err != nil {
		return err
	}
	fixed, err := fixSettings(ctx, r.e)
	if err != nil {
		return err
	}
	if sp {
		r.res.Speedup.Knob, r.res.Speedup.Fixed = parallelKnob(r.e, r.plan.Memory), fixed
	}
	if mem {
		r.res.Memory.Knob, r.res.Memory.Fixed = memoryKnob(r.e, r.plan.SweepP), fixed
	}
	for _, org := range speedupOrgs {
		if err := r.organize(ctx, r.e, org); err != nil {
			return err
		}
		qs, err := speedupQueries(d, org, r.plan.Seed)
		if err != nil {
			return err
		}
		for _, q := range qs {
			if sp {
				c, err := r.parallelCurve(ctx, q)
				r.res.Speedup.Curves = append(r.res.Speedup.Curves, c)
				if err != nil {
					return err
				}
			}
			if mem && q.join {
				c, err := r.memoryCurve(ctx, q)
				r.res.Memory.Curves = append(r.res.Memory.Curves, c)
				if err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// loadAll loads the four relations of size N into e and returns what the
// queries need to know of them.
func (r *speedupRun) loadAll(ctx context.Context, e dbms.Engine) (*w.Data, error) {
	return loadWisconsin(ctx, e, r.plan.Size, r.pr, func(lr results.LoadResult) {
		r.res.Loads = append(r.res.Loads, lr)
		r.run.Journal().Append(lr)
	})
}

// organize brings the four relations into org. The steps are cumulative as
// in the Wisconsin run: heap as loaded; clustered on unique2; then a
// secondary index on unique1 besides (seed 003's non-clustered index on a
// non-key attribute).
func (r *speedupRun) organize(ctx context.Context, e dbms.Engine, org w.Org) error {
	if org == w.Heap {
		return nil
	}
	if err := organizeAll(ctx, e, r.plan.Size, org); err != nil {
		return err
	}
	r.pr.Line("organisation %s built", org)
	return nil
}

func (r *speedupRun) warn(msg string) {
	r.res.Warnings = append(r.res.Warnings, msg)
	r.run.Journal().Append(results.JournalWarning(msg))
	r.pr.Line("warning: %s", msg)
}
