package experiment

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

// WisconsinSetup is everything a Wisconsin run needs besides its plan
// (DB "" means SQLite in the run directory).
type WisconsinSetup = Setup

// RunWisconsin opens the engine, writes the run directory and runs the plan.
// A server's URL is opened before anything is written, so bad input leaves
// nothing behind. It returns the results gathered so far even when the run
// fails part-way; they are in the run directory too.
func RunWisconsin(ctx context.Context, s WisconsinSetup, plan WisconsinPlan, pr *progress.Printer) (*results.WisconsinResults, error) {
	o, err := open(ctx, s, "wisconsin", plan.Seed, func(dir string) string { return dbms.DefaultURL(filepath.Join(dir, dbms.DefaultEngine()+".db")) }, noCheck)
	if err != nil {
		return nil, err
	}
	defer o.close()
	info := o.man.Engine
	pr.Line("dbgauge wisconsin on %s %s, sizes %v, %d repetitions, run directory %s", info.Engine, info.Version, plan.Sizes, plan.Reps, o.run.Dir)
	plan.URL = o.url
	res, runErr := wisconsin(ctx, s, o.e, plan, o.run, info, pr)
	if runErr == nil {
		runErr = wisconsinFailure(res)
	}
	runErr = runOutcome(ctx, o.run, runErr, &res.Complete, &res.Error)
	runErr = andErr(runErr, writeWisconsin(o.run, o.man, res))
	return res, runErr
}

// writeWisconsin writes results.json, the tables and the finished manifest.
func writeWisconsin(run *results.Run, man *results.Manifest, res *results.WisconsinResults) error {
	werr := writeOutputs(run, res)
	now := time.Now().UTC()
	man.Finished = &now
	if res.EngineTime != nil {
		addInstrumentation(man, engineTimeSession, res.EngineTime.Instrumentation)
	}
	if res.CacheFlush != nil {
		for _, d := range res.CacheFlush.NotDone {
			man.Notes = append(man.Notes, "cold cache: not emptied: "+d)
		}
	}
	return errors.Join(werr, run.WriteJSON("manifest.json", man))
}

// wisconsinFailure is the first query that failed (a lock, a lost
// session): the run went on past it, but did not measure everything it
// was asked to, so it is not complete (exit code 1).
func wisconsinFailure(res *results.WisconsinResults) error {
	for _, q := range res.Queries {
		if q.Status == results.StatusError && !q.TimedOut { // past --limit is a result
			return fmt.Errorf("Q%d at N=%d (%s, %s) failed: %s", q.Query, q.Size, q.Organization, q.Destination, q.Reason)
		}
	}
	return nil
}
