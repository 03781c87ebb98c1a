package experiment

import (
	"cmp"
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// engineClock reads the engine's own time of the statements a session
// times (docs/wisconsin.md §8). A nil clock reads nothing. separate: the
// times come from a second execution of each statement.
type engineClock struct {
	et       dbms.EngineTimer
	separate bool
}

// engineOff is why a run does not read engine times ("": it does).
func engineOff(noEngineTime bool) string {
	if noEngineTime {
		return "--engine-time=false"
	}
	return ""
}

// coldSecondExecution is why a cold execution gets no engine time from
// a second execution: that one runs right after it, warm.
const coldSecondExecution = "with the cache emptied before each execution, a second execution (the engine's only way to time here) would run warm"

// keepTiming records a session's timing as the run's when the run has
// none yet, and returns the session's clock; a later session (after a
// reconnect) that times otherwise than the recorded one gets none: the
// rest of the run has no engine times rather than times of another kind.
func keepTiming(recorded **results.EngineTiming, clock *engineClock, timing *results.EngineTiming) *engineClock {
	a := *recorded
	switch {
	case a == nil:
		*recorded = timing
	case a.Source != timing.Source || a.None != timing.None || a.Separate != timing.Separate:
		return nil
	}
	return clock
}

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
		if dbms.Classify(err).SessionFault() {
			return nil, nil, fmt.Errorf("ready the engine's own timing: %w", err)
		}
		return nil, &results.EngineTiming{None: err.Error()}, nil
	}
	// What the session records now that it is readied (it may have
	// turned the engine's statement tracking on for itself).
	instr, err := readInstrumentation(ctx, e)
	if err != nil {
		return nil, nil, fmt.Errorf("ready the engine's own timing: %w", err)
	}
	return &engineClock{et: et, separate: src.Separate}, &results.EngineTiming{Source: src.Name, Planning: src.Planning, Separate: src.Separate, Note: src.Note, Instrumentation: instr}, nil
}

// addEngineTime records a repetition's engine time in samples, or why
// it has none in none: one repetition without leaves no engine times at
// all (they would not be the repetitions').
func addEngineTime(samples *[]float64, none *string, x destRun) {
	switch {
	case *none != "":
	case x.engine == nil:
		*samples, *none = nil, cmp.Or(x.engineNone, clockLost)
	default:
		*samples = append(*samples, x.engine.TotalMS)
	}
}

// clockLost is why a repetition had no engine time when nothing else
// said why: the session was replaced, and its engine timing with it.
const clockLost = "the session was replaced, and its engine timing with it"

// around runs statement, the timed call, between the engine clock's
// reads, which stay outside the client's timed region; stmt is what the
// engine times (a second execution, where the engine times one, runs it
// without its destination). The run's engine time is nil, with the
// reason, when it could not be read; a read that failed for the
// session's trouble (dbms.Class.SessionFault) is the call's error.
func (c *engineClock) around(ctx context.Context, stmt string, statement func() (float64, int64, error)) (destRun, error) {
	var x destRun
	var err error
	if c == nil {
		x.ms, x.rows, err = statement()
		return x, err
	}
	if berr := c.et.BeforeStatement(ctx); berr != nil {
		if dbms.Classify(berr).SessionFault() {
			// The session is in trouble (a server that went silent, a
			// lost connection): that is the run's fault to name, not an
			// engine time to do without.
			return x, berr
		}
		x.ms, x.rows, err = statement()
		x.engineNone = fmt.Sprintf("the engine's time could not be read: %v", berr)
		return x, err
	}
	if x.ms, x.rows, err = statement(); err != nil {
		return x, err
	}
	got, ok, aerr := c.et.AfterStatement(ctx, stmt)
	switch {
	case aerr != nil && dbms.Classify(aerr).SessionFault():
		// As before the statement: the session's trouble ends the
		// measurement here, rather than in the next statement on a
		// connection already lost, which knows less of why.
		return x, aerr
	case aerr != nil:
		x.engineNone = fmt.Sprintf("the engine's time could not be read: %v", aerr)
	case !ok:
		x.engineNone = "the engine's record could not be attributed to the timed execution alone (another statement ran meanwhile, or a second execution would change the data)"
	default:
		x.engine = &got
	}
	return x, nil
}

// engineStatement is the statement the engine times for a retrieval of
// sql into dest, where it times a second execution: the query without
// its destination, a count the count.
func engineStatement(sql, dest string) string {
	if dest == results.DestCount {
		return countSQL(sql)
	}
	return sql
}
