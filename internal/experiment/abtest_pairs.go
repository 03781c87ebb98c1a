package experiment

import (
	"cmp"
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// compare runs one query in every cache mode: pair i executes stmts[i] on
// A, then the same text on B, so drift over the run hits both alike and
// the pairs can be resampled whole. The query is recorded (results.json
// rewritten) whatever stopped it; once every cache mode ran it is a
// complete unit, which a resumed run takes back (abtest_resume.go).
func (r *abRun) compare(ctx context.Context, q results.ABQuery, stmts []string, cols []dbms.Column) error {
	if r.restoreQuery(q.Label) {
		return nil
	}
	var err error
	for _, cache := range r.plan.Caches {
		run := results.ABCacheRun{Cache: cache, Status: results.StatusOK}
		err = r.pairs(ctx, q, cache, stmts, cols, &run)
		r.summarize(q.Label, &run)
		q.Runs = append(q.Runs, run)
		if err != nil {
			break
		}
	}
	r.res.Queries = append(r.res.Queries, q)
	r.run.Journal().Append(q)
	if err == nil {
		r.units.complete(q.Label)
	}
	// A crash leaves the summary of every query finished so far.
	r.run.WriteJSON("results.json", r.res)
	return err
}

// pairs runs the warm-up and the pairs of one query in one cache mode into
// run. Each pair is a unit: journalled whole, taken back by a resumed run,
// tried again after a fault under --pause-on-error. A failed execution
// ends this query's pairs and is recorded; only an interruption, a lost
// connection or a fault waited out in vain stops the whole run.
func (r *abRun) pairs(ctx context.Context, q results.ABQuery, cache string, stmts []string, cols []dbms.Column, run *results.ABCacheRun) error {
	cold := cache == "cold"
	want := q.ExpectedRows
	// The warm-up comes before the first pair measured in this part: a
	// resumed run warms its new session up again.
	warm := !cold
	for i, sql := range stmts {
		unit := abPairUnit(q.Label, cache, i)
		ms, rows, restored := r.restorePair(unit)
		var eng [2]destRun
		if !restored {
			var where string
			tries := 0
			err := r.units.do(ctx, unit, func(ctx context.Context, try int) error {
				tries++
				if try > 0 {
					where = "reconnect"
					for _, v := range []*abVariant{r.a, r.b} {
						if err := v.reopen(ctx); err != nil {
							return err
						}
					}
				}
				if warm {
					if err := r.warmup(ctx, q, cache, stmts, cols, &where); err != nil {
						return err
					}
				}
				for j, v := range []*abVariant{r.a, r.b} {
					x, err := r.execute(ctx, v, sql, cols, cold, true)
					r.journal(q, cache, "pair", i, v, x.ms, x.rows, err)
					if err != nil {
						where = fmt.Sprintf("pair %d on %s", i+1, v.name)
						return err
					}
					ms[j], rows[j], eng[j] = x.ms, x.rows, x
				}
				return nil
			})
			if err != nil {
				err = r.failed(ctx, run, where, err)
				if err == nil && tries > 1 {
					// Paused and given up: a session may be gone.
					err = asFault(fmt.Errorf("%s %s: %s", q.Label, cache, run.Reason))
				}
				return err
			}
			warm = false
		}
		for j, v := range []*abVariant{r.a, r.b} {
			// Wisconsin: the exact cardinality; --sql: what A returned
			// first, which B and every later pair must return too.
			if want < 0 {
				want = rows[j]
			}
			if rows[j] != want && run.Status == results.StatusOK {
				run.Status, run.Reason = results.StatusMismatch, fmt.Sprintf("pair %d: %s returned %d rows, expected %d", i+1, v.name, rows[j], want)
				if !restored { // a resumed run has the warning from its first part
					r.warn(fmt.Sprintf("%s %s: %s", q.Label, cache, run.Reason))
				}
			}
			run.Rows = rows[j]
		}
		run.AMS, run.BMS = append(run.AMS, ms[0]), append(run.BMS, ms[1])
		r.engineTimes(run, eng, restored)
		r.pr.Live("%s %s pair %d/%d  A %.2f ms  B %.2f ms", q.Label, cache, i+1, len(stmts), ms[0], ms[1])
	}
	return nil
}

// engineTimes adds a pair's engine times to run, where both variants'
// engines told theirs; a pair without them (an engine without a clock, a
// record that could not be read, a pair taken back from the journal of a
// resumed run) leaves the query without engine times, and says why.
func (r *abRun) engineTimes(run *results.ABCacheRun, eng [2]destRun, restored bool) {
	if r.res.EngineTimeA.None != "" || r.res.EngineTimeB.None != "" || run.EngineNone != "" {
		return // no engine times at all (the run says why), or no more for this query
	}
	why := ""
	switch {
	case restored:
		why = "pairs taken back from the first part of a resumed run carry no engine time"
	case eng[0].engine == nil:
		why = "A: " + cmp.Or(eng[0].engineNone, clockLost)
	case eng[1].engine == nil:
		why = "B: " + cmp.Or(eng[1].engineNone, clockLost)
	}
	if why != "" {
		run.AEngineMS, run.BEngineMS, run.EngineNone = nil, nil, why
		return
	}
	run.AEngineMS = append(run.AEngineMS, eng[0].engine.TotalMS)
	run.BEngineMS = append(run.BEngineMS, eng[1].engine.TotalMS)
}

// warmup runs the untimed executions before a query's warm pairs, A and B
// alternating; where names the one that failed.
func (r *abRun) warmup(ctx context.Context, q results.ABQuery, cache string, stmts []string, cols []dbms.Column, where *string) error {
	for i := 0; i < r.plan.Warmup; i++ {
		for _, v := range []*abVariant{r.a, r.b} {
			x, err := r.execute(ctx, v, stmts[i%len(stmts)], cols, false, false)
			r.journal(q, cache, "warmup", i, v, x.ms, x.rows, err)
			if err != nil {
				*where = fmt.Sprintf("warm-up %d on %s", i+1, v.name)
				return err
			}
		}
	}
	return nil
}

// failed records a failed execution in run; it returns an error only when
// the run cannot go on. An execution Ctrl-C or SIGTERM stopped is no
// failure of the engine: the run is marked interrupted (the pairs that
// finished before stay; the one stopped is not among them).
func (r *abRun) failed(ctx context.Context, run *results.ABCacheRun, where string, err error) error {
	status := results.StatusError
	if ctx.Err() != nil {
		status, err = results.StatusInterrupted, interrupted(ctx)
	}
	if run.Status == results.StatusOK || run.Status == results.StatusMismatch {
		run.Status, run.Reason = status, fmt.Sprintf("%s: %v", where, err)
	}
	switch {
	case ctx.Err() != nil:
		return err
	case dbms.Classify(err).Transient():
		return fmt.Errorf("%s: connection lost: %w", where, err)
	}
	return nil
}

// execute times one execution on v into the run's destination (see
// intoDest), with the engine's own time when engine says so (a pair,
// not a warm-up). A cold execution first empties what can be emptied;
// that is outside the timed region.
func (r *abRun) execute(ctx context.Context, v *abVariant, sql string, cols []dbms.Column, cold, engine bool) (destRun, error) {
	if err := v.ready(ctx); err != nil {
		return destRun{}, err
	}
	if cold {
		if err := r.cold(ctx, v); err != nil {
			return destRun{}, err
		}
	}
	clock := v.clock
	if !engine || (cold && clock != nil && clock.separate) {
		clock = nil
	}
	x, err := intoDestTimed(ctx, v.e, clock, sql, cols, r.plan.Dest)
	if engine && cold && clock == nil && v.clock != nil {
		x.engineNone = coldSecondExecution
	}
	return x, err
}

// cold empties the caches before v's execution. A restart of the shared
// server ends the other variant's session too: it reconnects before its
// next statement. Adapters that reopen their database (SQLite, DuckDB)
// lose session settings, so v's are restored.
func (r *abRun) cold(ctx context.Context, v *abVariant) error {
	done, notDone, err := coldCache(ctx, v.e, r.plan.Restart)
	if err != nil {
		return fmt.Errorf("variant %s: %w", v.name, err)
	}
	if r.plan.Restart != nil {
		for _, o := range []*abVariant{r.a, r.b} {
			if o != v {
				o.stale = true
			}
		}
	}
	r.res.CacheFlush = mergeFlush(r.res.CacheFlush, done, notDone, r.warn)
	return v.setup(ctx)
}

func (r *abRun) journal(q results.ABQuery, cache, kind string, i int, v *abVariant, ms float64, rows int64, err error) {
	r.run.Journal().Append(results.ABExecution{
		Query: q.Label, Cache: cache, Kind: kind, Pair: i, Variant: v.name,
		MS: ms, Rows: rows, ExpectedRows: q.ExpectedRows, Error: errString(err),
	})
}

// summarize compares the finished pairs and prints the query's line.
func (r *abRun) summarize(label string, run *results.ABCacheRun) {
	if len(run.AMS) > 0 {
		c, err := stats.CompareAB(run.AMS, run.BMS, r.plan.Level, ABResamples, stats.DefaultBootstrapSeed)
		if err == nil {
			run.Comparison = &c
			run.RateAPerS, run.RateBPerS = 1000*c.RateA, 1000*c.RateB
		} else {
			r.warn(fmt.Sprintf("%s %s: %v", label, run.Cache, err))
		}
	}
	if len(run.AEngineMS) > 0 && len(run.AEngineMS) == len(run.AMS) {
		if c, err := stats.CompareAB(run.AEngineMS, run.BEngineMS, r.plan.Level, ABResamples, stats.DefaultBootstrapSeed); err == nil {
			run.EngineComparison = &c
		}
	}
	mark := run.Status
	if run.Reason != "" {
		mark += ": " + run.Reason
	}
	if c := run.Comparison; c != nil {
		r.pr.Line("%-6s %-4s A %10.2f ms  B %10.2f ms  A/B %6.3f [%.3f, %.3f]  %-26s %s", label, run.Cache, c.MedianA, c.MedianB, c.Factor, c.Low, c.High, c.Verdict, mark)
	} else {
		r.pr.Line("%-6s %-4s no pair finished  %s", label, run.Cache, mark)
	}
}
