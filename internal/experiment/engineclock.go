package experiment

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// engineClock reads the engine's own time of the statements a session
// times (docs/wisconsin.md §8). A nil clock reads nothing.
type engineClock struct{ et dbms.EngineTimer }

// startEngineClock readies e's own timing. It returns the clock (nil
// when there is none) and what the run records of it: the source, or
// why there is none; off, when set, is why not to time (a flag, a
// protocol that stands for it). Only a fault of the connection is an
// error: an engine that cannot time on this server says so, and the run
// times without.
func startEngineClock(ctx context.Context, e dbms.Engine, off string) (*engineClock, *results.EngineTiming, error) {
	if off != "" {
		return nil, &results.EngineTiming{None: off}, nil
	}
	et, ok := e.(dbms.EngineTimer)
	if !ok {
		why := e.Name() + " reports no time of its own per statement"
		if tl, ok := e.(dbms.EngineTimeless); ok {
			why = tl.NoEngineTime()
		}
		return nil, &results.EngineTiming{None: why}, nil
	}
	src, err := et.EngineTiming(ctx)
	if err != nil {
		if c := dbms.Classify(err); c.Transient() || c == dbms.Timeout {
			return nil, nil, fmt.Errorf("ready the engine's own timing: %w", err)
		}
		return nil, &results.EngineTiming{None: err.Error()}, nil
	}
	return &engineClock{et}, &results.EngineTiming{Source: src.Name, Planning: src.Planning, Separate: src.Separate, Note: src.Note}, nil
}

// addEngineTime records a repetition's engine time in samples, or why
// it has none in none: one repetition without leaves no engine times at
// all (they would not be the repetitions').
func addEngineTime(samples *[]float64, none *string, x destRun) {
	switch {
	case *none != "":
	case x.engine == nil:
		*samples, *none = nil, x.engineNone
	default:
		*samples = append(*samples, x.engine.TotalMS)
	}
}

// noEngineTime is why --engine-time=false runs have none.
const noEngineTime = "--engine-time=false"

// around runs statement, the timed call, between the engine clock's
// reads, which stay outside the client's timed region; stmt is what the
// engine times (a second execution, where the engine times one, runs it
// without its destination). The engine's time is nil, with the reason,
// when it could not be read.
func (c *engineClock) around(ctx context.Context, stmt string, statement func() (float64, int64, error)) (ms float64, rows int64, t *dbms.EngineTime, none string, err error) {
	if c == nil {
		ms, rows, err = statement()
		return ms, rows, nil, "", err
	}
	if berr := c.et.BeforeStatement(ctx); berr != nil {
		ms, rows, err = statement()
		return ms, rows, nil, fmt.Sprintf("the engine's time could not be read: %v", berr), err
	}
	ms, rows, err = statement()
	if err != nil {
		return ms, rows, nil, "", err
	}
	got, ok, aerr := c.et.AfterStatement(ctx, stmt)
	switch {
	case aerr != nil:
		return ms, rows, nil, fmt.Sprintf("the engine's time could not be read: %v", aerr), nil
	case !ok:
		return ms, rows, nil, "the engine's record could not be attributed to the timed execution alone (another statement ran meanwhile, or a second execution would change the data)", nil
	}
	return ms, rows, &got, "", nil
}
