package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// ABVariantPlan is one side of an A/B comparison.
type ABVariantPlan struct {
	// URL is the variant's engine; "" means Setup.DB (or the embedded
	// default when that is empty too).
	URL string
	// Session statements run at the start of the variant's session and
	// again whenever it is reconnected (a cold cache may reopen it).
	Session []string
}

// ABTestPlan is a validated A/B comparison (docs/experiments.md §3):
// nothing touched yet.
type ABTestPlan struct {
	A, B ABVariantPlan
	// Wisconsin lists retrieval queries run on relations of base size
	// Size, loaded once; SQL lists the --sql file's queries instead.
	Wisconsin []int
	Size      int64
	SQL       []string
	Reps      int
	// Warmup untimed executions per variant come before a query's warm
	// pairs, so that "warm" means what it says from the first pair on.
	Warmup int
	Caches []string // "warm", "cold", in the order to run
	Dest   string   // results.DestClient, DestCount or DestRelation
	Level  float64
	Seed   uint64
	// Restart restarts the one private server both variants connect to
	// (--server): a cold execution then starts with its cache empty.
	Restart func(context.Context) error
	Drop    bool
	// NoEngineTime leaves out the engine's own time of the pairs.
	NoEngineTime bool
}

// abVariant is an open variant.
type abVariant struct {
	name    string
	e       dbms.Engine
	url     string
	session []string
	// stale: a restart for the other variant's cold execution ended this
	// session; it reconnects before its next statement.
	stale bool
	// noClock says why the engine's own time is not read ("": it is);
	// clock reads it (nil: none, and timing says why).
	noClock string
	clock   *engineClock
	timing  *results.EngineTiming
}

type abRun struct {
	plan   ABTestPlan
	a, b   *abVariant
	sameDB bool // both variants read the same database: load it once
	run    *results.Run
	res    *results.ABTestResults
	pr     *progress.Printer
	// units are the pairs (and the queries they make up, abtest_resume.go);
	// done is what a resumed run journalled.
	units *units
	done  *results.Progress
}

// ABResamples is the number of bootstrap resamples of the ratio interval.
const ABResamples = stats.DefaultResamples

// RunABTest opens both variants, prepares the data, runs every query in
// interleaved pairs (A then B) in each cache mode and writes the run
// directory. It returns what was measured even when it fails.
func RunABTest(ctx context.Context, s Setup, plan ABTestPlan, pr *progress.Printer) (*results.ABTestResults, error) {
	embedded := func(dir string) string { return dbms.DefaultURL(filepath.Join(dir, "abtest.db")) }
	// The run (its directory, manifest, resumption and pause policy) is
	// variant A's setup: only the engine URL is A's own.
	sa := s
	sa.DB = firstNonEmpty(plan.A.URL, s.DB)
	o, err := open(ctx, sa, "abtest", plan.Seed, embedded, noCheck)
	if err != nil {
		return nil, err
	}
	// Variant A owns the session from here on: a unit tried again after a
	// fault replaces it (abVariant.reopen).
	a := &abVariant{name: "A", e: o.e, url: o.url, session: plan.A.Session}
	o.e = nil
	b := &abVariant{name: "B", url: firstNonEmpty(plan.B.URL, s.DB, o.url), session: plan.B.Session}
	defer func() {
		a.close()
		b.close()
		o.close()
	}()
	// Nothing is measured yet: a variant that cannot be opened or whose
	// session statements fail leaves no run directory behind (a resumed
	// run's holds what its first part measured, and stays).
	abandon := func(err error) (*results.ABTestResults, error) {
		a.close()
		b.close()
		o.close()
		if s.Resume == nil {
			os.RemoveAll(s.Dir)
		}
		return nil, err
	}
	if b.e, err = dbms.Open(ctx, b.url); err != nil {
		return abandon(fmt.Errorf("variant B: %w", err))
	}
	infoB, err := b.e.Info(ctx)
	if err != nil {
		return abandon(fmt.Errorf("variant B: read %s version and settings: %w", b.e.Name(), err))
	}
	for _, v := range []*abVariant{a, b} {
		v.noClock = engineOff(plan.NoEngineTime)
		if err := v.setup(ctx); err != nil {
			return abandon(dbms.Wrap(dbms.BadInput, err))
		}
	}
	r := &abRun{plan: plan, a: a, b: b, sameDB: a.url == b.url, run: o.run, pr: pr, done: s.Resume, res: &results.ABTestResults{
		Header: results.Header{Experiment: "abtest"},
		A:      results.ABVariant{Name: "A", DB: redacted(a.url), Engine: a.e.Name(), EngineVersion: o.man.Engine.Version, Session: a.session},
		B:      results.ABVariant{Name: "B", DB: redacted(b.url), Engine: b.e.Name(), EngineVersion: infoB.Version, Session: b.session},
		Reps:   plan.Reps, Warmup: plan.Warmup, Caches: plan.Caches, Destination: plan.Dest,
		Level: plan.Level, Resamples: ABResamples, Seed: plan.Seed,
		Order:       "pairs: A then B with the same statement, repetition by repetition, each query's pairs in a row; untimed warm-up executions (A, B alternating) before the warm pairs; cold: caches emptied before every execution",
		EngineTimeA: a.timing, EngineTimeB: b.timing,
	}}
	if len(plan.SQL) > 0 {
		r.res.Workload = "sql"
	} else {
		r.res.Workload, r.res.Size = "wisconsin", plan.Size
	}
	r.units = newUnits(s, o.run, &r.res.Header, pr)
	pr.Line("dbgauge abtest: A = %s %s %s %v, B = %s %s %s %v; %s, %d pairs per query, cache %v, run directory %s",
		a.e.Name(), o.man.Engine.Version, r.res.A.DB, a.session, b.e.Name(), infoB.Version, r.res.B.DB, b.session, r.res.Workload, plan.Reps, plan.Caches, o.run.Dir)
	runErr := r.measure(ctx)
	if runErr == nil {
		runErr = r.failure()
	}
	if plan.Drop && len(plan.SQL) == 0 {
		r.dropWisconsin(context.WithoutCancel(ctx))
	}
	runErr = runOutcome(ctx, r.run, runErr, &r.res.Complete, &r.res.Error)
	runErr = andErr(runErr, o.noteEngineTime("variant A's "+engineTimeSession, a.timing))
	runErr = andErr(runErr, o.noteEngineTime("variant B's "+engineTimeSession, b.timing))
	runErr = andErr(runErr, r.write())
	return r.res, runErr
}

func (r *abRun) measure(ctx context.Context) error {
	if len(r.plan.SQL) > 0 {
		for i, q := range r.plan.SQL {
			label := fmt.Sprintf("sql %d", i+1)
			stmts := make([]string, r.plan.Reps)
			for j := range stmts {
				stmts[j] = q
			}
			if err := r.compare(ctx, results.ABQuery{Label: label, SQL: q, ExpectedRows: -1}, stmts, nil); err != nil {
				return err
			}
		}
		return nil
	}
	return r.wisconsin(ctx)
}

// databases lists the variants whose databases differ; one when both read the same database
// (for loading and organising it once).
func (r *abRun) databases() []*abVariant {
	if r.sameDB {
		return []*abVariant{r.a}
	}
	return []*abVariant{r.a, r.b}
}

// setup runs the variant's session statements.
func (v *abVariant) setup(ctx context.Context) error {
	for _, s := range v.session {
		if _, err := v.e.Exec(ctx, s); err != nil {
			return fmt.Errorf("variant %s: session statement %q: %w", v.name, s, err)
		}
	}
	clock, timing, err := startEngineClock(ctx, v.e, v.noClock)
	if err != nil {
		return fmt.Errorf("variant %s: %w", v.name, err)
	}
	v.clock = keepTiming(&v.timing, clock, timing)
	return nil
}

// reopen replaces v's session with a new one, its settings restored: a
// pair tried again after a fault (--pause-on-error).
func (v *abVariant) reopen(ctx context.Context) error {
	v.close()
	e, err := dbms.Open(ctx, v.url)
	if err != nil {
		return fmt.Errorf("variant %s: reconnect: %w", v.name, err)
	}
	v.e, v.stale = e, false
	return v.setup(ctx)
}

// close ends v's session; closing twice is harmless.
func (v *abVariant) close() {
	if v.e != nil {
		v.e.Close()
		v.e = nil
	}
}

// ready reconnects a session a restart ended and restores its settings.
func (v *abVariant) ready(ctx context.Context) error {
	if !v.stale {
		return nil
	}
	rc, ok := v.e.(dbms.Reconnecter)
	if !ok {
		return fmt.Errorf("variant %s: %s sessions cannot reconnect after a restart", v.name, v.e.Name())
	}
	if err := rc.Reconnect(ctx); err != nil {
		return fmt.Errorf("variant %s: reconnect after a restart: %w", v.name, err)
	}
	v.stale = false
	return v.setup(ctx)
}

func (r *abRun) warn(msg string) {
	r.res.Warnings = append(r.res.Warnings, msg)
	r.run.Journal().Append(results.JournalWarning(msg))
	r.pr.Line("warning: %s", msg)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func redacted(raw string) string {
	u, err := dbms.ParseURL(raw)
	if err != nil {
		return raw
	}
	return u.Redacted()
}

// failure is the first query that failed (a lock, a lost session): the
// comparison went on past it, but is not complete (exit code 1).
func (r *abRun) failure() error {
	for _, q := range r.res.Queries {
		for _, c := range q.Runs {
			if c.Status == results.StatusError {
				return fmt.Errorf("%s %s failed: %s", q.Label, c.Cache, c.Reason)
			}
		}
	}
	return nil
}
