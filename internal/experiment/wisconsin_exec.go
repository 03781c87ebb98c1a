package experiment

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// resultTable is the result relation of "into a relation" executions.
const resultTable = "wisc_result"

// execution is one repetition: the timed statement into its destination
// (time, rows, the engine's own time) and what went wrong around it.
type execution struct {
	destRun
	timedOut bool
	// stateLost is set when an update's restore failed: the relations are
	// no longer the benchmark's, so the run must stop.
	stateLost error
}

// execute runs one repetition: untimed preparation, the timed statement,
// then the untimed cardinality check and clean-up. Only the statement the
// query is about sits inside the timed region. An update's restore runs
// whatever happened to the timed statement, even after Ctrl-C.
func (r *wisconsinRun) execute(ctx context.Context, st w.Stmt, dest string) (ex execution, err error) {
	if len(st.Restore) > 0 {
		defer func() { ex.stateLost = r.restore(ctx, st) }()
	}
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
		if err := r.cold(ctx); err != nil {
			return execution{}, err
		}
	}
	ex, err = r.timed(ctx, st, dest)
	if err != nil || st.Timed != "" || dest != results.DestRelation {
		return ex, err
	}
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
	return ex, nil
}

// timed runs the statement a repetition is about, under the time limit:
// the server's own limit where the engine has one (set just around the
// statement, so loads and index builds are never limited; the context
// deadline then only backs it up), the context deadline otherwise.
func (r *wisconsinRun) timed(parent context.Context, st w.Stmt, dest string) (execution, error) {
	ctx := parent
	limiter, hasLimiter := r.e.(dbms.StatementLimiter)
	if r.plan.Limit > 0 {
		grace := time.Duration(0)
		if hasLimiter {
			if err := limiter.SetStatementLimit(parent, r.plan.Limit); err != nil {
				return execution{}, fmt.Errorf("set the statement limit: %w", err)
			}
			defer limiter.SetStatementLimit(parent, 0)
			grace = 10 * time.Second
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(parent, r.plan.Limit+grace)
		defer cancel()
	}
	statement := func(ctx context.Context) (rows int64, err error) {
		switch {
		case st.Timed != "":
			return r.e.Exec(ctx, st.Timed)
		case dest == results.DestRelation:
			return 0, r.e.CreateTableAs(ctx, resultTable, st.Select, st.Columns)
		case dest == results.DestClient:
			return r.e.QueryCount(ctx, st.Select)
		case dest == results.DestCount:
			v, err := dbms.FirstValue(ctx, r.e, countSQL(st.Select))
			if err != nil {
				return 0, err
			}
			return strconv.ParseInt(v, 10, 64)
		}
		return 0, fmt.Errorf("unknown destination %q", dest)
	}
	var ex execution
	var err error
	if r.ttp != nil {
		explain := st.Select
		if st.Timed != "" {
			explain = st.Timed
		}
		ex.rows, ex.ms, err = r.ttpMeasure(ctx, explain, statement)
	} else {
		// The statement the engine times (where it times a second
		// execution, the one it runs): an update itself, a count the
		// count, a retrieval into a relation or to the client its query,
		// without the destination.
		engineStmt := engineStatement(st.Select, dest)
		if st.Timed != "" {
			engineStmt = st.Timed
		}
		ex.destRun, err = r.clock.around(parent, engineStmt, func() (float64, int64, error) {
			return timed(parent, func() (int64, error) { return statement(ctx) })
		})
	}
	elapsed := time.Duration(ex.ms * 1e6)
	if r.plan.Limit == 0 || parent.Err() != nil {
		return ex, err
	}
	// A statement past the limit counts as timed out even when the driver's
	// cancellation came too late to stop it: the limit means the same on
	// every engine.
	deadlineFired := ctx.Err() != nil
	if elapsed >= r.plan.Limit || deadlineFired || (err != nil && dbms.Classify(err) == dbms.Timeout) {
		ex.timedOut = true
	}
	if deadlineFired {
		// The client cancelled the statement: some drivers close the
		// connection when they do. Start a fresh session.
		if rerr := r.reconnect(parent); rerr != nil {
			return ex, fmt.Errorf("%v; reconnecting afterwards failed: %w", err, rerr)
		}
	}
	return ex, err
}

// reconnect gives the run a fresh session with its session statements.
func (r *wisconsinRun) reconnect(ctx context.Context) error {
	rc, ok := r.e.(dbms.Reconnecter)
	if !ok {
		return nil
	}
	if err := rc.Reconnect(ctx); err != nil {
		return err
	}
	if err := r.ttpReattach(ctx); err != nil {
		return err
	}
	return r.setupSession(ctx)
}

// restore undoes an update and proves the relation is as before. It runs
// even when ctx was cancelled (Ctrl-C), bounded by its own minute.
func (r *wisconsinRun) restore(ctx context.Context, st w.Stmt) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	for _, s := range st.Restore {
		if _, err := r.e.Exec(ctx, s); err != nil {
			return fmt.Errorf("restore %q: %w", s, err)
		}
	}
	for _, c := range st.Verify {
		v, err := dbms.FirstValue(ctx, r.e, c.SQL)
		if err != nil {
			return fmt.Errorf("verify %q: %w", c.SQL, err)
		}
		if v != strconv.FormatInt(c.Want, 10) {
			return fmt.Errorf("after restoring, %s returned %s, want %d: the relation is no longer the benchmark's", c.SQL, v, c.Want)
		}
	}
	return nil
}

// cold empties the caches before a cold execution, records what could not
// be emptied (over the whole run), and restores the session settings a
// reconnect may have lost.
func (r *wisconsinRun) cold(ctx context.Context) error {
	done, notDone, err := coldCache(ctx, r.e, r.plan.Restart)
	if err != nil {
		return err
	}
	if err := r.ttpReattach(ctx); err != nil {
		return err
	}
	if err := r.setupSession(ctx); err != nil {
		return err
	}
	r.res.CacheFlush = mergeFlush(r.res.CacheFlush, done, notDone, r.warn)
	if len(r.res.CacheFlush.NotDone) > 0 {
		r.res.Cache = "cold (partial)"
	}
	return nil
}
