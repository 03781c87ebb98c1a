package experiment

import (
	"context"
	"errors"
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
	runErr = runOutcome(ctx, o.run, runErr, &res.Complete, &res.Error)
	if err := writeWisconsin(o.run, o.man, res); err != nil && runErr == nil {
		runErr = err
	}
	return res, runErr
}

// writeWisconsin writes results.json, the tables and the finished manifest.
func writeWisconsin(run *results.Run, man *results.Manifest, res *results.WisconsinResults) error {
	werr := writeOutputs(run, res)
	now := time.Now().UTC()
	man.Finished = &now
	if res.CacheFlush != nil {
		for _, d := range res.CacheFlush.NotDone {
			man.Notes = append(man.Notes, "cold cache: not emptied: "+d)
		}
	}
	return errors.Join(werr, run.WriteJSON("manifest.json", man))
}
