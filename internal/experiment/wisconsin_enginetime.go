package experiment

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// startEngineTime readies the engine-reported time of the timed
// statements, or records why there is none. It runs with the session
// statements, so a reconnect (a cold execution, a cancelled statement)
// readies the new session too.
func (r *wisconsinRun) startEngineTime(ctx context.Context) error {
	switch {
	case r.plan.NoEngineTime:
		r.res.EngineTime = &results.EngineTiming{None: "--engine-time=false"}
		return nil
	case r.plan.Protocol:
		r.res.EngineTime = &results.EngineTiming{None: "with --protocol ttp the protocol's computed time (the query process's own CPU and I/O time) stands for the engine's"}
		return nil
	}
	et, ok := r.e.(dbms.EngineTimer)
	if !ok {
		why := r.e.Name() + " reports no time of its own per statement"
		if tl, ok := r.e.(dbms.EngineTimeless); ok {
			why = tl.NoEngineTime()
		}
		r.res.EngineTime = &results.EngineTiming{None: why}
		return nil
	}
	src, err := et.EngineTiming(ctx)
	if err != nil {
		if c := dbms.Classify(err); c.Transient() || c == dbms.Timeout {
			return fmt.Errorf("ready the engine's own timing: %w", err)
		}
		// The engine could tell, but not on this server as it runs: the
		// run times without, and says how to get it.
		r.res.EngineTime = &results.EngineTiming{None: err.Error()}
		r.engineTimer = nil
		return nil
	}
	if r.engineTimer == nil {
		r.pr.Line("engine time from %s", src.Name)
	}
	r.res.EngineTime = &results.EngineTiming{Source: src.Name, Planning: src.Planning, Separate: src.Separate, Note: src.Note}
	r.engineTimer = et
	return nil
}

// engineSamples gathers a query's engine-reported times, repetition by
// repetition, beside the client's.
type engineSamples struct {
	total, plan, client []float64
	planKnown           bool
	// none says why a repetition had no engine time (then the query has
	// none: the samples would not be the repetitions').
	none string
}

// add records one measured repetition.
func (s *engineSamples) add(clientMS float64, t *dbms.EngineTime, none string) {
	if s.none != "" {
		return
	}
	if t == nil {
		s.none = none
		return
	}
	if len(s.total) == 0 {
		s.planKnown = t.HasPlan
	}
	s.planKnown = s.planKnown && t.HasPlan
	s.total = append(s.total, t.TotalMS)
	s.plan = append(s.plan, t.PlanMS)
	s.client = append(s.client, clientMS)
}

// result summarises the samples: the engine's total, its planning, and
// the time outside it; or why there are none.
func (s *engineSamples) result() (*results.EngineTimes, string) {
	if s.none != "" || len(s.total) == 0 {
		return nil, s.none
	}
	outside := make([]float64, len(s.total))
	for i := range s.total {
		outside[i] = s.client[i] - s.total[i]
	}
	et := &results.EngineTimes{TotalMS: stats.Summarize(s.total), TotalSamplesMS: s.total, OutsideMS: stats.Summarize(outside)}
	if c := stats.Summarize(s.client); c.Median > 0 {
		et.OutsideShare = et.OutsideMS.Median / c.Median
	}
	if s.planKnown {
		p := stats.Summarize(s.plan)
		et.PlanMS, et.PlanSamplesMS = &p, s.plan
	}
	return et, ""
}

// engineTimed runs statement, the timed call, between the engine
// timer's calls, which stay outside the client's timed region. The
// engine's time is nil, with the reason, when it could not be read.
func (r *wisconsinRun) engineTimed(ctx context.Context, stmt string, statement func() (float64, int64, error)) (ms float64, rows int64, t *dbms.EngineTime, none string, err error) {
	et := r.engineTimer
	if et == nil {
		ms, rows, err = statement()
		return ms, rows, nil, "", err
	}
	if berr := et.BeforeStatement(ctx); berr != nil {
		ms, rows, err = statement()
		return ms, rows, nil, fmt.Sprintf("the engine's time could not be read: %v", berr), err
	}
	ms, rows, err = statement()
	if err != nil {
		return ms, rows, nil, "", err
	}
	got, ok, aerr := et.AfterStatement(ctx, stmt)
	switch {
	case aerr != nil:
		return ms, rows, nil, fmt.Sprintf("the engine's time could not be read: %v", aerr), nil
	case !ok:
		return ms, rows, nil, "the engine's record could not be attributed to the timed execution alone (another statement ran meanwhile, or a second execution would change the data)", nil
	}
	return ms, rows, &got, "", nil
}
