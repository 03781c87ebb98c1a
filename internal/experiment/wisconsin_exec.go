package experiment

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// resultTable is the result relation of "into a relation" executions.
const resultTable = "wisc_result"

type execution struct {
	ms   float64
	rows int64
}

// execute runs one repetition: untimed preparation, the timed statement,
// then the untimed cardinality check and clean-up. Only the statement the
// query is about sits inside the timed region.
func (r *wisconsinRun) execute(ctx context.Context, st w.Stmt, dest string) (execution, error) {
	if dest == DestRelation {
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
		done, notDone, err := coldCache(ctx, r.e)
		if err != nil {
			return execution{}, err
		}
		if r.res.CacheFlush == nil {
			r.res.CacheFlush = &CacheFlush{Done: done, NotDone: notDone}
			r.run.Journal().Append("cache_flush", r.res.CacheFlush)
			for _, nd := range notDone {
				r.warn("cold cache: could not empty " + nd)
			}
		}
	}
	var ex execution
	var err error
	start := time.Now()
	switch {
	case st.Timed != "":
		ex.rows, err = r.e.Exec(ctx, st.Timed)
	case dest == DestRelation:
		err = r.e.CreateTableAs(ctx, resultTable, st.Select, st.Columns)
	case dest == DestClient:
		ex.rows, err = r.e.QueryCount(ctx, st.Select)
	case dest == DestCount:
		var v string
		v, err = dbms.FirstValue(ctx, r.e, "SELECT COUNT(*) FROM ("+st.Select+") AS q")
		if err == nil {
			ex.rows, err = strconv.ParseInt(v, 10, 64)
		}
	default:
		err = fmt.Errorf("unknown destination %q", dest)
	}
	ex.ms = float64(time.Since(start).Nanoseconds()) / 1e6
	if err != nil {
		return ex, err
	}
	if dest == DestRelation && st.Timed == "" {
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
