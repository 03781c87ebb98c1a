package experiment

import (
	"context"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// startEngineTime readies the engine-reported time of the timed
// statements, or records why there is none. It runs with the session
// statements, so a reconnect (a cold execution, a cancelled statement)
// readies the new session too.
func (r *wisconsinRun) startEngineTime(ctx context.Context) error {
	off := engineOff(r.plan.NoEngineTime)
	if off == "" && r.plan.Protocol {
		off = "with --protocol ttp the protocol's computed time (the query process's own CPU and I/O time) stands for the engine's"
	}
	clock, timing, err := startEngineClock(ctx, r.e, off)
	if err != nil {
		return err
	}
	if clock != nil && clock.separate && r.plan.Cold {
		clock, timing = nil, &results.EngineTiming{None: coldSecondExecution + " (" + timing.Note + ")"}
	}
	if r.res.EngineTime == nil && clock != nil {
		r.pr.Line("engine time from %s", timing.Source)
	}
	r.clock = keepTiming(&r.res.EngineTime, clock, timing)
	return nil
}

// engineSamples gathers a query's engine-reported times, repetition by
// repetition.
type engineSamples struct {
	total, plan []float64
	planKnown   bool
	// none says why a repetition had no engine time (then the query has
	// none: the samples would not be the repetitions').
	none string
}

// add records one measured repetition (addEngineTime's rule: one
// without engine time leaves the query without).
func (s *engineSamples) add(x destRun) {
	if addEngineTime(&s.total, &s.none, x); s.none != "" {
		return
	}
	t := x.engine
	s.planKnown = t.HasPlan && (len(s.plan) == 0 || s.planKnown)
	s.plan = append(s.plan, t.PlanMS)
}

// result summarises the samples: the engine's total, its planning, and
// the time outside it, beside client, the client's times of the same
// repetitions; or why there are none.
func (s *engineSamples) result(client []float64) (*results.EngineTimes, string) {
	if s.none != "" || len(s.total) == 0 {
		return nil, s.none
	}
	outside := make([]float64, len(s.total))
	for i := range s.total {
		outside[i] = client[i] - s.total[i]
	}
	et := &results.EngineTimes{TotalMS: stats.Summarize(s.total), TotalSamplesMS: s.total, OutsideMS: stats.Summarize(outside)}
	if c := stats.Summarize(client); c.Median > 0 {
		et.OutsideShare = et.OutsideMS.Median / c.Median
	}
	if s.planKnown {
		p := stats.Summarize(s.plan)
		et.PlanMS, et.PlanSamplesMS = &p, s.plan
	}
	return et, ""
}
