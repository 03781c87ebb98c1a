package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// MultiuserPlan is a validated multi-user throughput run (docs/experiments.md
// section 1; seed 004, IDM Performance Test 1): nothing touched yet.
type MultiuserPlan struct {
	Users           []int // ascending, distinct; 1 among them when any is above 0
	Tuples          int64
	Reps            int
	Retrieves       int   // per user script
	RowsPerRetrieve int64 // 1: exact match; more: a range of that many rows
	// Processes runs every user as its own process, started with
	// UserCommand (plus UserEnv in its environment); goroutines otherwise.
	Processes        bool
	UserCommand      []string
	UserEnv          []string
	SubtractOverhead bool
	Seed             uint64
	// Retry measures again, after a backoff capped at BackoffCap, a
	// measurement cut short by a transient fault (the server restarting),
	// until the fault has lasted GiveUp (0: the driver's defaults).
	Retry              bool
	BackoffCap, GiveUp time.Duration
	// Spread places the users on the nodes of a cluster that the URL
	// names by several hosts (SpreadPolicies; every user reads).
	Spread string
}

type multiuserRun struct {
	e     dbms.Engine
	url   string
	plan  MultiuserPlan
	run   *results.Run
	res   *results.MultiuserResults
	pr    *progress.Printer
	table string
	// times[i] holds the wall times (ms) at plan.Users[i].
	times [][]float64
	// units are the steps; done those a resumed run completed before.
	units *units
	done  map[string]results.MultiuserRun
	// spread places the users on a cluster's nodes (nil: one server).
	spread *spread
}

// RunMultiuser loads and organises the relation, measures every user count
// --reps times and writes the run directory. It returns what was measured
// even when it fails.
func RunMultiuser(ctx context.Context, s Setup, plan MultiuserPlan, pr *progress.Printer) (*results.MultiuserResults, error) {
	embedded := func(dir string) string { return dbms.DefaultURL(filepath.Join(dir, "multiuser.db")) }
	var sp *spread
	check := func(e dbms.Engine) (err error) {
		if p, ok := e.(dbms.PrivateDatabase); ok {
			return dbms.Wrap(dbms.BadInput, fmt.Errorf("multiuser needs a database several sessions can share; %s", p.PrivateDatabase()))
		}
		if s.DB != "" {
			sp, err = newSpread(ctx, s.DB, plan.Spread)
		}
		return err
	}
	o, err := open(ctx, s, "multiuser", plan.Seed, embedded, check)
	if err != nil {
		return nil, err
	}
	defer o.close()
	mode := "goroutines"
	if plan.Processes {
		mode = "processes"
	}
	r := &multiuserRun{e: o.e, url: o.url, plan: plan, run: o.run, pr: pr, times: make([][]float64, len(plan.Users)),
		res: &results.MultiuserResults{
			Header: results.Header{Experiment: "multiuser", Engine: o.e.Name(), EngineVersion: o.man.Engine.Version}, Tuples: plan.Tuples,
			Retrieves: plan.Retrieves, RowsPerRetrieve: plan.RowsPerRetrieve, Users: plan.Users, Reps: plan.Reps,
			Mode: mode, SubtractOverhead: plan.SubtractOverhead, Seed: plan.Seed, CPUs: runtime.NumCPU(),
		}}
	r.units, r.done = newUnits(s, o.run, &r.res.Header, pr), doneMultiuser(s.Resume)
	if sp != nil {
		r.spread = sp
		r.res.Cluster, r.res.Spread = sp.nodes, plan.Spread
		for u := range slices.Max(plan.Users) {
			_, order := sp.placed(u, false)
			r.res.UserNodes = append(r.res.UserNodes, order[0])
		}
		pr.Line("cluster of %d nodes (%s); users spread %s", len(sp.nodes), sp.roles(), plan.Spread)
	}
	if plan.Retry {
		r.res.Retry = true
		r.res.BackoffCapS, r.res.GiveUpS = backoffSeconds(plan.BackoffCap, plan.GiveUp)
	}
	pr.Line("dbgauge multiuser on %s %s: users %v, %d repetitions, %d retrieves per user, %s, run directory %s",
		o.man.Engine.Engine, o.man.Engine.Version, plan.Users, plan.Reps, plan.Retrieves, mode, o.run.Dir)
	runErr := r.measure(ctx)
	r.analyze()
	runErr = runOutcome(ctx, r.run, runErr, &r.res.Complete, &r.res.Error)
	runErr = andErr(runErr, r.write())
	return r.res, runErr
}

// userURL is the URL user u (from 0) connects to: on a cluster, its
// node first (the spread), the others after.
func (r *multiuserRun) userURL(u int) string {
	if r.spread == nil {
		return r.url
	}
	url, _ := r.spread.placed(u, false)
	return url.Raw
}

// measure prepares the relation, warms the cache with every script and
// runs the repetitions: each repetition goes through all user counts, so
// a drift of the machine hits every count alike.
func (r *multiuserRun) measure(ctx context.Context) error {
	if err := r.prepare(ctx); err != nil {
		return err
	}
	// On a cluster, the users' nodes must have the relation first.
	if err := r.spread.catchUp(ctx, r.e); err != nil {
		return err
	}
	most := slices.Max(r.plan.Users)
	scripts := make([][]Retrieve, most)
	for u := range scripts {
		scripts[u] = MultiuserScript(r.plan.Seed, u, r.plan.Tuples, r.plan.Retrieves, r.plan.RowsPerRetrieve)
	}
	// Warm-up, not measured: every script once on the master's session, so
	// that every user count meets the same warm cache (and every query is
	// known to return its rows before anything is timed).
	for u, s := range scripts {
		if _, err := runScript(ctx, r.e, r.table, s); err != nil {
			return fmt.Errorf("warm-up, user %d: %w", u+1, err)
		}
	}
	r.pr.Line("warm-up: the %d users' scripts ran once, every cardinality as expected", most)
	r.checkIdle()
	for rep := 1; rep <= r.plan.Reps; rep++ {
		for i, n := range r.plan.Users {
			unit := multiuserUnit(n, rep)
			if mr, ok := r.done[unit]; ok && r.units.completed(unit) {
				r.keep(i, mr)
				continue
			}
			err := r.units.do(ctx, unit, func(ctx context.Context, _ int) error {
				ur, err := r.measureOnce(ctx, n, rep, scripts[:n])
				if err != nil {
					return fmt.Errorf("%d users, repetition %d: %w", n, rep, err)
				}
				mr := results.MultiuserRun{Users: n, Rep: rep, WallMS: msOf(ur.wall), Rows: ur.rows}
				for _, d := range ur.users {
					mr.UserMS = append(mr.UserMS, msOf(d))
				}
				r.run.Journal().Append(mr)
				r.keep(i, mr)
				r.pr.Line("users %3d  repetition %d/%d  %10.3f ms  (%d rows)", n, rep, r.plan.Reps, mr.WallMS, mr.Rows)
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// keep adds one measured step (users at index i of the plan) to the results.
func (r *multiuserRun) keep(i int, mr results.MultiuserRun) {
	r.res.Runs = append(r.res.Runs, mr)
	r.times[i] = append(r.times[i], mr.WallMS)
}

// A multiuser run's unit is a step: one user count in one repetition.
// When a run is resumed, the relation is loaded and organised again and
// the warm-up runs again; the completed steps are taken back from the
// journal and only the others run, with the users' scripts drawn from
// the run's seed and each user's number, as before.

// multiuserUnit names a step in the journal.
func multiuserUnit(users, rep int) string { return fmt.Sprintf("%d users, repetition %d", users, rep) }

// doneMultiuser are the steps a stopped run journalled, by unit; nil for a
// new run.
func doneMultiuser(p *results.Progress) map[string]results.MultiuserRun {
	if p == nil {
		return nil
	}
	out := map[string]results.MultiuserRun{}
	results.Decode(p, results.MultiuserRun{}.JournalKind(), func(_ int, mr results.MultiuserRun) {
		out[multiuserUnit(mr.Users, mr.Rep)] = mr
	})
	return out
}

// start runs one set of users in the plan's mode.
func (r *multiuserRun) start(ctx context.Context, scripts [][]Retrieve) (usersRun, error) {
	if r.plan.Processes {
		return runProcesses(ctx, r.plan.UserCommand, r.plan.UserEnv, r.userURL, r.table, scripts)
	}
	return runGoroutines(ctx, r.userURL, r.table, scripts)
}

// prepare loads TENKTUP1 and gives it both organisations. Clustered comes
// first: on SQLite, Cluster rebuilds the table as a WITHOUT ROWID table and
// would take an earlier unique1 index with the old table; on the other
// engines the order does not matter (PostgreSQL's CLUSTER and InnoDB's
// ADD PRIMARY KEY rebuild the secondary indexes, DuckDB recreates them,
// Firebird only adds an index).
func (r *multiuserRun) prepare(ctx context.Context) error {
	lr, cen, err := loadRelation(ctx, r.e, w.Tenktup1, r.plan.Tuples, r.pr)
	if err != nil {
		return err
	}
	r.res.Load = &lr
	r.run.Journal().Append(lr)
	if err := cen.CheckFull(r.plan.Tuples); err != nil {
		return fmt.Errorf("generated %s: %w", lr.Table, err)
	}
	r.table = lr.Table
	r.res.Table = lr.Table
	start := time.Now()
	for _, org := range []w.Org{w.Clustered, w.NonClustered} {
		if err := organizeTable(ctx, r.e, r.table, org); err != nil {
			return err
		}
	}
	r.res.Organization = "clustered on unique2 (" + clusteredHow(r.e) + "), non-clustered B-tree index on unique1"
	r.pr.Line("%s organised in %.2f s: %s", r.table, time.Since(start).Seconds(), r.res.Organization)
	return nil
}

// clusteredHow says what "clustered" is on the engine (its Cluster).
func clusteredHow(e dbms.Engine) string {
	if c, ok := e.(dbms.ClusterDescriber); ok {
		return c.ClusteredHow()
	}
	return e.Name() + "'s Cluster"
}

// checkIdle records the machine's load average before the measurements: a
// run takes milliseconds per user count, so another busy process moves its
// times more than anything the users do (and T(1) disturbed distorts every
// thruput). It warns from a load of 1, one CPU's worth of other work.
func (r *multiuserRun) checkIdle() {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return
	}
	var l1 float64
	if _, err := fmt.Sscan(string(b), &l1); err != nil {
		return
	}
	r.res.LoadAverage = &l1
	if l1 >= 1 {
		r.warn(fmt.Sprintf("the machine was busy before the measurements (load average %.2f on %d CPUs): other work disturbs millisecond times; repeat on an idle machine or with more --reps", l1, runtime.NumCPU()))
	}
}

func (r *multiuserRun) warn(msg string) {
	r.res.Warnings = append(r.res.Warnings, msg)
	r.run.Journal().Append(results.JournalWarning(msg))
	r.pr.Line("warning: %s", msg)
}

func msOf(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
