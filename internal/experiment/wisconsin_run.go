package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
)

// WisconsinSetup is everything a Wisconsin run needs besides its plan.
type WisconsinSetup struct {
	// DB is the engine URL; "" means SQLite in the run directory.
	DB string
	// Dir is the run directory, checked writable and empty by the caller.
	Dir string
	// Command and Config go into the manifest (passwords already redacted).
	Command []string
	Config  map[string]any
	Version string
}

// RunWisconsin opens the engine, writes the run directory and runs the plan.
// A server's URL is opened before anything is written, so bad input leaves
// nothing behind. It returns the results gathered so far even when the run
// fails part-way; they are in the run directory too.
func RunWisconsin(ctx context.Context, s WisconsinSetup, plan WisconsinPlan, pr *progress.Printer) (*results.WisconsinResults, error) {
	started := time.Now()
	db, embedded := s.DB, s.DB == ""
	if embedded {
		abs, err := filepath.Abs(s.Dir)
		if err != nil {
			return nil, err
		}
		db = "sqlite:" + filepath.Join(abs, "sqlite.db")
	}
	u, err := dbms.ParseURL(db)
	if err != nil {
		return nil, err
	}
	var e dbms.Engine
	if !embedded {
		if e, err = dbms.Open(ctx, db); err != nil {
			return nil, err
		}
		defer e.Close()
	}
	run, err := results.Create(s.Dir)
	if err != nil {
		return nil, err
	}
	defer run.Close()
	if embedded {
		if e, err = dbms.Open(ctx, db); err != nil {
			run.Close()
			os.RemoveAll(s.Dir) // nothing was measured: leave nothing behind
			return nil, err
		}
		defer e.Close()
	}
	info, err := e.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("read %s version and settings: %w", e.Name(), err)
	}
	man := &results.Manifest{
		Experiment: "wisconsin", Command: s.Command, Config: s.Config, Dbgauge: s.Version, Go: goVersion(),
		Started: started.UTC(), Seed: plan.Seed, DB: u.Redacted(), Engine: info, System: sysinfo.Describe(run.Dir),
	}
	if err := run.WriteJSON("manifest.json", man); err != nil {
		return nil, err
	}
	pr.Line("dbgauge wisconsin on %s %s, sizes %v, %d repetitions, run directory %s", info.Engine, info.Version, plan.Sizes, plan.Reps, run.Dir)
	res, runErr := Wisconsin(ctx, e, plan, run, info, pr)
	if err := writeWisconsin(run, man, res); err != nil && runErr == nil {
		runErr = err
	}
	return res, runErr
}

// writeWisconsin writes results.json, the tables and the finished manifest.
func writeWisconsin(run *results.Run, man *results.Manifest, res *results.WisconsinResults) error {
	if err := run.WriteJSON("results.json", res); err != nil {
		return err
	}
	runs := []*results.WisconsinResults{res}
	if err := run.WriteFile("tables.txt", report.WisconsinText(runs)); err != nil {
		return err
	}
	for name, b := range report.WisconsinCSV(runs) {
		if err := run.WriteFile(name, b); err != nil {
			return err
		}
	}
	now := time.Now().UTC()
	man.Finished = &now
	if res.CacheFlush != nil {
		for _, d := range res.CacheFlush.NotDone {
			man.Notes = append(man.Notes, "cold cache: not emptied: "+d)
		}
	}
	return run.WriteJSON("manifest.json", man)
}
