package experiment

import (
	"context"
	"fmt"
	"github.com/dbgauge/dbgauge/internal/results"
	"strconv"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// resultTable is the result relation of "into a relation" executions.
const resultTable = "wisc_result"

type execution struct {
	ms       float64
	rows     int64
	timedOut bool
}

// execute runs one repetition: untimed preparation, the timed statement,
// then the untimed cardinality check and clean-up. Only the statement the
// query is about sits inside the timed region.
// timed runs the statement a repetition is about, under the time limit:
// the server's own limit where the engine has one (the context deadline then
// only backs it up), the context deadline otherwise.
func (r *wisconsinRun) timed(ctx context.Context, st w.Stmt, dest string) (execution, error) {
	parent := ctx
	if r.plan.Limit > 0 {
		grace := time.Duration(0)
		if _, ok := r.e.(dbms.StatementLimiter); ok {
			grace = 10 * time.Second
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.plan.Limit+grace)
		defer cancel()
	}
	var ex execution
	var err error
	start := time.Now()
	switch {
	case st.Timed != "":
		ex.rows, err = r.e.Exec(ctx, st.Timed)
	case dest == results.DestRelation:
		err = r.e.CreateTableAs(ctx, resultTable, st.Select, st.Columns)
	case dest == results.DestClient:
		ex.rows, err = r.e.QueryCount(ctx, st.Select)
	case dest == results.DestCount:
		var v string
		v, err = dbms.FirstValue(ctx, r.e, "SELECT COUNT(*) FROM ("+st.Select+") AS q")
		if err == nil {
			ex.rows, err = strconv.ParseInt(v, 10, 64)
		}
	default:
		err = fmt.Errorf("unknown destination %q", dest)
	}
	elapsed := time.Since(start)
	ex.ms = float64(elapsed.Nanoseconds()) / 1e6
	// A statement past the limit counts as timed out even when the driver's
	// cancellation came too late to stop it: the limit means the same on
	// every engine.
	if r.plan.Limit > 0 && (elapsed >= r.plan.Limit || (err != nil && (dbms.Classify(err) == dbms.Timeout || ctx.Err() != nil))) {
		ex.timedOut = true
		if rerr := r.recover(parent); rerr != nil {
			return ex, fmt.Errorf("%v; reconnecting afterwards failed: %w", err, rerr)
		}
	}
	return ex, err
}

// recover gives the run a usable session again after a statement was
// cancelled at the time limit: engines that stop it themselves keep theirs;
// others may have lost the connection to the cancellation.
func (r *wisconsinRun) recover(ctx context.Context) error {
	if _, ok := r.e.(dbms.StatementLimiter); ok {
		return nil
	}
	rc, ok := r.e.(dbms.Reconnecter)
	if !ok {
		return nil
	}
	if err := rc.Reconnect(ctx); err != nil {
		return err
	}
	return r.setupSession(ctx)
}

func (r *wisconsinRun) execute(ctx context.Context, st w.Stmt, dest string) (execution, error) {
	if dest == results.DestRelation {
		if err := r.e.DropTable(ctx, resultTable); err != nil {
			return execution{}, fmt.Errorf("drop result relation: %w", err)
		}
	}
	for _, s := range st.Setup {
		if _, err := r.e.Exec(ctx, s); err != nil {
			return execution{}, fmt.Errorf("setup %q: %w", s, err)
		}
	}
	if r.plan.Cold {
		done, notDone, err := coldCache(ctx, r.e, r.plan.Restart)
		if err != nil {
			return execution{}, err
		}
		// A flush may reconnect: session settings must hold again.
		if err := r.setupSession(ctx); err != nil {
			return execution{}, err
		}
		if r.res.CacheFlush == nil {
			r.res.CacheFlush = &results.CacheFlush{Done: done, NotDone: notDone}
			r.run.Journal().Append("cache_flush", r.res.CacheFlush)
			for _, nd := range notDone {
				r.warn("cold cache: could not empty " + nd)
			}
		}
	}
	ex, err := r.timed(ctx, st, dest)
	if err != nil {
		return ex, err
	}
	if dest == results.DestRelation && st.Timed == "" {
		v, err := dbms.FirstValue(ctx, r.e, "SELECT COUNT(*) FROM "+resultTable)
		if err != nil {
			return ex, fmt.Errorf("count result relation: %w", err)
		}
		if ex.rows, err = strconv.ParseInt(v, 10, 64); err != nil {
			return ex, err
		}
		if err := r.e.DropTable(ctx, resultTable); err != nil {
			return ex, fmt.Errorf("drop result relation: %w", err)
		}
	}
	for _, s := range st.Teardown {
		if _, err := r.e.Exec(ctx, s); err != nil {
			return ex, fmt.Errorf("undo %q: %w", s, err)
		}
	}
	return ex, nil
}
