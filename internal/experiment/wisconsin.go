// Package experiment holds one file per experiment: it asks a workload for
// data and operations, an engine adapter for how to run them, measures, and
// records every measurement in the run directory as it is taken.
package experiment

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// WisconsinPlan is a validated Wisconsin run: nothing touched yet.
type WisconsinPlan struct {
	Sizes   []int64
	Reps    int
	Orgs    []w.Org
	Dests   []string
	Cold    bool
	Queries []int
	Seed    uint64
	Drop    bool
	// Limit bounds one execution: past it the query is reported as timed
	// out and its remaining repetitions are skipped (seed 000 reported its
	// "> 5 hours" joins the same way).
	Limit time.Duration
	// Session statements run at the start of every session (and again after
	// a cold-cache reconnect), e.g. SET join_cache_level = 4.
	Session []string
	// Restart, when set, restarts the engine's server (a private instance
	// dbgauge manages) so that cold executions start with its cache empty.
	Restart func(context.Context) error
	// Protocol times every execution with the timing protocol (ttp); URL
	// is the engine's, for finding a server's process by its port.
	Protocol bool
	URL      string
	// NoEngineTime leaves out the engine-reported time of the timed
	// statements (wisconsin_enginetime.go).
	NoEngineTime bool
}

// Wisconsin runs the plan on an open engine, writing into run. It returns
// the results gathered so far even when it fails part-way (the caller
// writes them: nothing measured is lost).
func Wisconsin(ctx context.Context, e dbms.Engine, plan WisconsinPlan, run *results.Run, info dbms.Info, pr *progress.Printer) (*results.WisconsinResults, error) {
	return wisconsin(ctx, Setup{}, e, plan, run, info, pr)
}

// wisconsin is Wisconsin for the run setup s: a resumed run (s.Resume)
// skips the query results it completed, and s.Pause applies to each.
func wisconsin(ctx context.Context, s Setup, e dbms.Engine, plan WisconsinPlan, run *results.Run, info dbms.Info, pr *progress.Printer) (*results.WisconsinResults, error) {
	res := &results.WisconsinResults{
		Header: results.Header{Experiment: "wisconsin", Engine: e.Name(), EngineVersion: info.Version},
		Sizes:  plan.Sizes, Reps: plan.Reps, Seed: plan.Seed, Cache: "warm",
	}
	if plan.Cold {
		res.Cache = "cold"
	}
	r := newRun(e, plan, run, res, pr, info)
	r.units, r.done = newUnits(s, run, &res.Header, pr), doneWisconsin(s.Resume)
	if err := r.setupSession(ctx); err != nil {
		res.Error = err.Error()
		return res, err
	}
	if plan.Protocol {
		if err := r.ttpStart(ctx); err != nil {
			res.Error = err.Error()
			return res, err
		}
		defer r.ttpFinish() // also when the run fails: what was measured is analysed
	}
	for _, n := range plan.Sizes {
		if err := r.size(ctx, n); err != nil {
			res.Error = err.Error()
			return res, err
		}
	}
	r.growth()
	res.Complete = true
	return res, nil
}

type wisconsinRun struct {
	// isClustered and hasUnique1 record, per size, what the organisation
	// steps have built, so each is built once whatever the selection.
	isClustered, hasUnique1 map[int64]bool
	e                       dbms.Engine
	plan                    WisconsinPlan
	run                     *results.Run
	res                     *results.WisconsinResults
	pr                      *progress.Printer
	info                    dbms.Info
	ttp                     *wisconsinTTP // nil without --protocol ttp
	// clock reads the engine's own time of each timed statement (nil:
	// none, and res.EngineTime says why).
	clock *engineClock
	// units are the query results (wisconsin_resume.go); done what a
	// resumed run completed before it stopped (nil for a new run).
	units *units
	done  *wisconsinDone
}

func newRun(e dbms.Engine, plan WisconsinPlan, run *results.Run, res *results.WisconsinResults, pr *progress.Printer, info dbms.Info) *wisconsinRun {
	return &wisconsinRun{e: e, plan: plan, run: run, res: res, pr: pr, info: info, isClustered: map[int64]bool{}, hasUnique1: map[int64]bool{},
		units: newUnits(Setup{}, run, &res.Header, pr)}
}

// size loads the four relations of base size n, then walks the storage
// organisations in order, running each organisation's queries.
func (r *wisconsinRun) size(ctx context.Context, n int64) error {
	if r.sizeDone(n) {
		r.restoreSize(n)
		return nil
	}
	data, err := r.load(ctx, n)
	if err != nil {
		return err
	}
	r.bufferRatio(n)
	orgErr := map[w.Org]string{}
	for _, org := range w.Orgs {
		qs := r.queriesOf(org)
		if len(qs) == 0 {
			continue
		}
		if reason, err := r.organize(ctx, n, org); err != nil {
			return err
		} else if reason != "" {
			orgErr[org] = reason
		}
		for _, q := range qs {
			if err := r.query(ctx, data, q, orgErr[org]); err != nil {
				return err
			}
		}
		if org == w.Hash && orgErr[org] == "" {
			if err := r.dropHash(ctx, n); err != nil {
				return err
			}
		}
	}
	if r.plan.Drop {
		for _, rel := range w.Relations {
			if err := r.e.DropTable(ctx, w.TableName(rel, n)); err != nil {
				return fmt.Errorf("drop %s: %w", w.TableName(rel, n), err)
			}
		}
	}
	return nil
}

// queriesOf lists the selected queries run under org.
func (r *wisconsinRun) queriesOf(org w.Org) []w.Query {
	if !slices.Contains(r.plan.Orgs, org) {
		return nil
	}
	var out []w.Query
	for _, q := range w.Queries {
		if q.Org == org && slices.Contains(r.plan.Queries, q.Num) {
			out = append(out, q)
		}
	}
	return out
}

// destinations of q in this run.
func (r *wisconsinRun) destinations(q w.Query) []string {
	switch {
	case q.Update:
		return []string{results.DestUpdate}
	case q.ToClient:
		return []string{results.DestClient}
	}
	return r.plan.Dests
}

// query runs every repetition of q at every destination and records them:
// each destination is one unit (wisconsin_resume.go).
func (r *wisconsinRun) query(ctx context.Context, data *w.Data, q w.Query, notApplicable string) error {
	for _, dest := range r.destinations(q) {
		if qr, ok := r.restoredQuery(data.N, q, dest); ok {
			r.res.Queries = append(r.res.Queries, qr)
			r.ttpRestore(wisconsinUnit(data.N, q, dest))
			continue
		}
		kept := len(r.res.Queries)
		err := r.units.do(ctx, wisconsinUnit(data.N, q, dest), func(ctx context.Context, try int) error {
			if try > 0 {
				// Tried again after a fault (--pause-on-error): the failed
				// try's result stays in the journal, not among the results;
				// a new session replaces the one lost.
				r.res.Queries = r.res.Queries[:kept]
				if err := r.reconnect(ctx); err != nil {
					return err
				}
			}
			return r.queryAt(ctx, data, q, dest, notApplicable)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// queryAt runs every repetition of q at dest and records its result.
func (r *wisconsinRun) queryAt(ctx context.Context, data *w.Data, q w.Query, dest, notApplicable string) error {
	qr := results.QueryResult{Query: q.Num, Class: q.Class, Size: data.N, Organization: string(q.Org), Destination: dest, Status: results.StatusOK}
	if notApplicable != "" {
		qr.Status, qr.Reason = results.StatusNotApplicable, notApplicable
		r.record(qr)
		return nil
	}
	r.ttpBegin(q, data.N, dest)
	var es engineSamples
	err := r.repetitions(ctx, data, q, dest, &qr, &es)
	r.ttpEnd()
	if r.clock != nil {
		qr.Engine, qr.EngineNone = es.result(qr.SamplesMS)
	}
	// Whatever stopped the repetitions, what they measured is kept.
	r.record(qr)
	return err
}

// repetitions runs the repetitions of q at dest into qr. It returns an error
// only when the run cannot go on (interrupted, connection lost, relations in
// an unknown state); a failed query is recorded in qr instead.
func (r *wisconsinRun) repetitions(ctx context.Context, data *w.Data, q w.Query, dest string, qr *results.QueryResult, es *engineSamples) error {
	// One generator per (query, size, organisation): constants are
	// reproducible from the seed whatever else was selected.
	rng := rand.New(rand.NewPCG(r.plan.Seed, uint64(q.Num)<<48^uint64(data.N)<<8^uint64(orgIndex(q.Org))))
	for rep := 0; rep < r.plan.Reps; rep++ {
		st, err := q.Build(data, rep, rng)
		if err != nil {
			return err
		}
		qr.ExpectedRows = st.Expected
		ex, err := r.execute(ctx, st, dest)
		stopped := ctx.Err() != nil
		if stopped && err == nil {
			err = interrupted(ctx)
		}
		r.run.Journal().Append(results.WisconsinExecution{
			Query: q.Num, Size: data.N, Organization: string(q.Org), Destination: dest, Rep: rep,
			MS: ex.ms, Rows: ex.rows, ExpectedRows: st.Expected, TimedOut: ex.timedOut, Error: errString(err), Interrupted: stopped,
		})
		switch {
		case stopped:
			// Ctrl-C or SIGTERM: this execution is no measurement, whatever
			// it returned. The repetitions before it stay as samples, but
			// the result is not ok: it is not the result of the plan.
			why := fmt.Sprintf("repetition %d of %d interrupted (%v); the execution is not a measurement", rep+1, r.plan.Reps, context.Cause(ctx))
			if ex.stateLost != nil {
				why += fmt.Sprintf("; %v", ex.stateLost)
			}
			r.interrupt(qr, why)
			return interrupted(ctx)
		case ex.stateLost != nil:
			qr.Status, qr.Reason = results.StatusError, fmt.Sprintf("repetition %d: %v", rep+1, ex.stateLost)
			// Invalid: relations in an unknown state are no fault to wait
			// out (--pause-on-error does not try again).
			return dbms.Wrap(dbms.Invalid, fmt.Errorf("query %d: %w", q.Num, ex.stateLost))
		case ex.timedOut:
			// A mismatch seen earlier stays the status: a timeout must not hide it.
			qr.TimedOut, qr.LimitMS = true, float64(r.plan.Limit.Milliseconds())
			if qr.Status == results.StatusOK {
				qr.Status = results.StatusError
				qr.Reason = fmt.Sprintf("repetition %d ran past the time limit of %s (--limit); the remaining repetitions were skipped", rep+1, r.plan.Limit)
			}
			return nil
		case err != nil:
			if qr.Status == results.StatusOK {
				qr.Status, qr.Reason = results.StatusError, fmt.Sprintf("repetition %d: %v", rep+1, err)
			}
			if dbms.Classify(err).Transient() {
				return fmt.Errorf("query %d: connection lost: %w", q.Num, err)
			}
			return nil
		}
		qr.Rows = ex.rows
		qr.SamplesMS = append(qr.SamplesMS, ex.ms)
		es.add(ex.destRun)
		if ex.rows != st.Expected && qr.Status == results.StatusOK {
			qr.Status, qr.Reason = results.StatusMismatch, fmt.Sprintf("repetition %d returned %d rows, expected %d", rep+1, ex.rows, st.Expected)
		}
		r.pr.Live("N=%d %-12s Q%-2d %-8s rep %d/%d  %.2f ms", data.N, q.Org, q.Num, dest, rep+1, r.plan.Reps, ex.ms)
	}
	return nil
}

// interrupt marks qr interrupted: an ok result becomes interrupted, a
// failure seen before (a mismatch, an error) stays and says it was
// interrupted too.
func (r *wisconsinRun) interrupt(qr *results.QueryResult, why string) {
	if qr.Status == results.StatusOK {
		qr.Status, qr.Reason = results.StatusInterrupted, why
		return
	}
	qr.Reason += "; then " + why
}

// setupSession runs the plan's session statements and readies the
// engine's own timing.
func (r *wisconsinRun) setupSession(ctx context.Context) error {
	for _, s := range r.plan.Session {
		if _, err := r.e.Exec(ctx, s); err != nil {
			return fmt.Errorf("session statement %q: %w", s, err)
		}
	}
	return r.startEngineTime(ctx)
}

func orgIndex(o w.Org) int { return slices.Index(w.Orgs, o) }

// record summarises a query result, keeps it and journals it.
func (r *wisconsinRun) record(qr results.QueryResult) {
	qr.Reps = len(qr.SamplesMS)
	qr.ElapsedMS = stats.Summarize(qr.SamplesMS)
	r.res.Queries = append(r.res.Queries, qr)
	r.run.Journal().Append(qr)
	// results.json is rewritten after every query, so a crash leaves the
	// summary of everything finished so far, not only the journal.
	r.run.WriteJSON("results.json", r.res)
	mark := qr.Status
	if qr.Reason != "" {
		mark += ": " + qr.Reason
	}
	r.pr.Line("N=%-9d Q%-2d %-22s %-12s %-8s median %10.3f ms  %s", qr.Size, qr.Query, qr.Class, qr.Organization, qr.Destination, qr.ElapsedMS.Median, mark)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// growth fits time against size for every query run at two or more sizes.
func (r *wisconsinRun) growth() {
	if len(r.plan.Sizes) < 2 {
		return
	}
	type key struct {
		q         int
		org, dest string
	}
	pts := map[key][][2]float64{}
	var order []key
	for _, qr := range r.res.Queries {
		if qr.Status != results.StatusOK {
			continue
		}
		k := key{qr.Query, qr.Organization, qr.Destination}
		if _, seen := pts[k]; !seen {
			order = append(order, k)
		}
		pts[k] = append(pts[k], [2]float64{float64(qr.Size), qr.ElapsedMS.Median})
	}
	for _, k := range order {
		var sizes, times []float64
		for _, p := range pts[k] {
			sizes, times = append(sizes, p[0]), append(times, p[1])
		}
		g, err := stats.FitGrowth(sizes, times, expectedGrowth(k.q))
		if err != nil {
			continue
		}
		r.res.Growth = append(r.res.Growth, results.GrowthResult{Query: k.q, Organization: k.org, Destination: k.dest, Growth: g})
	}
}

// expectedGrowth: single-tuple work through an index (and appends) should
// not grow with the relation; everything else touches a fixed fraction of it.
func expectedGrowth(q int) string {
	switch q {
	case 7, 23, 26, 29, 30, 31, 32:
		return "flat"
	}
	return "linear"
}

func (r *wisconsinRun) bufferRatio(n int64) {
	rel := n * 208 // the Handbook's relation size: N tuples of 208 bytes
	br := results.BufferRatio{Size: n, RelationBytes: rel, BufferPoolBytes: r.info.BufferPoolBytes}
	if br.BufferPoolBytes > 0 {
		br.Ratio = float64(rel) / float64(br.BufferPoolBytes)
		if br.Ratio < 5 {
			r.warn(fmt.Sprintf("N=%d: relation (%d bytes) is only %.2f times the %s buffer pool (%d bytes); the Handbook asks for at least 5, so this run measures a mostly cached relation", n, rel, br.Ratio, r.e.Name(), br.BufferPoolBytes))
		}
	} else {
		r.warn(fmt.Sprintf("N=%d: the %s buffer pool size is unknown, so the relation-to-buffer ratio cannot be checked", n, r.e.Name()))
	}
	r.res.BufferRatios = append(r.res.BufferRatios, br)
}

func (r *wisconsinRun) warn(msg string) {
	r.res.Warnings = append(r.res.Warnings, msg)
	r.run.Journal().Append(results.JournalWarning(msg))
	r.pr.Line("warning: %s", msg)
}
