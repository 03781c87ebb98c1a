package experiment

import (
	"context"
	"fmt"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// Population is what building one scale's database took, for a caller
// outside a sweep (dbgauge populate): the steps' times, the rows loaded
// and the database's size (0 when the engine cannot say). KeyedTables are
// the tables created with their primary keys (dbms.KeyedTables): those
// keys were built during Load, and Keys holds the other keys and indexes.
type Population struct {
	Drop, Load, Keys, ForeignKeys time.Duration
	Rows                          int64
	SizeBytes                     int64
	KeyedTables                   []string
	Notes                         []string
}

// PopulateScale builds w's database at scale x on url as a sweep builds
// it before its cycles (drop, create, the bulk load in parallel where the
// engine allows, keys, indexes, the workload's own init), in the
// statements form, and then runs the workload's check after the load
// (workload.LoadChecker), returning its violations.
func PopulateScale(ctx context.Context, url string, w workload.Workload, x int64, pr *progress.Printer) (*Population, []string, error) {
	e, err := openControl(ctx, url)
	if err != nil {
		return nil, nil, err
	}
	defer e.Close()
	open := func(ctx context.Context) (dbms.Engine, error) { return openControl(ctx, url) }
	p, err := populate(ctx, e, open, w, x, formStatements, pr)
	if err != nil {
		return nil, nil, err
	}
	out := &Population{Drop: p.drop, Load: p.populate, Keys: p.primaryKey, ForeignKeys: p.foreignKey, SizeBytes: p.sizeBytes, KeyedTables: p.keyedTables, Notes: p.notes}
	for _, t := range w.Schema(x).Tables {
		out.Rows += t.Rows
	}
	var bad []string
	if lc, ok := w.NewCheck(x).(workload.LoadChecker); ok {
		if bad, err = lc.CheckLoaded(ctx, e); err != nil {
			return out, nil, fmt.Errorf("the check after the load: %w", err)
		}
	}
	return out, bad, nil
}

// CheckScale runs w's checks of a database at scale x that are not tied
// to a run's counts: those after a run (workload.FinalChecker), or with
// afterLoad those that hold right after the population
// (workload.LoadChecker). It refuses a workload without such a check
// (bad input: the user named the workload) before it connects.
func CheckScale(ctx context.Context, url string, w workload.Workload, x int64, afterLoad bool) ([]string, error) {
	ck := w.NewCheck(x)
	lc, isLoad := ck.(workload.LoadChecker)
	fc, isFinal := ck.(workload.FinalChecker)
	switch {
	case afterLoad && !isLoad, !afterLoad && !isFinal:
		what := "--workload " + w.Meta().Name + ": the workload has no check of a database outside a run"
		if afterLoad {
			what = "--after-load: the " + w.Meta().Name + " workload has no check of a database just loaded"
		}
		return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("%s: check it with dbgauge dsbench, which checks it after every cycle", what))
	}
	e, err := openControl(ctx, url)
	if err != nil {
		return nil, err
	}
	defer e.Close()
	if afterLoad {
		return lc.CheckLoaded(ctx, e)
	}
	return fc.CheckFinal(ctx, e)
}
