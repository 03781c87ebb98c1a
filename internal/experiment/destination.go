package experiment

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// intoDest runs a retrieval once into dest and returns the time of the
// statement alone and the result's cardinality:
//   - relation: CREATE TABLE AS into resultTable (the seeds' way); the
//     count and the drop come after the timed region;
//   - count: SELECT COUNT(*) over the query, only the count crosses;
//   - client: every row is fetched by the client and discarded.
//
// cols describe the result for engines that need them to create it.
func intoDest(ctx context.Context, e dbms.Engine, sql string, cols []dbms.Column, dest string) (float64, int64, error) {
	x, err := intoDestTimed(ctx, e, nil, sql, cols, dest)
	return x.ms, x.rows, err
}

// destRun is one retrieval into its destination: the client's time, the
// cardinality, and the engine's own time of it (nil: none, engineNone
// says why when the engine has a clock).
type destRun struct {
	ms         float64
	rows       int64
	engine     *dbms.EngineTime
	engineNone string
}

// intoDestTimed is intoDest with the engine's own time read by clock
// around the timed statement (a nil clock reads none).
func intoDestTimed(ctx context.Context, e dbms.Engine, clock *engineClock, sql string, cols []dbms.Column, dest string) (destRun, error) {
	if dest == results.DestRelation {
		if err := e.DropTable(ctx, resultTable); err != nil {
			return destRun{}, fmt.Errorf("drop result relation: %w", err)
		}
	}
	var stmt func() (int64, error)
	switch dest {
	case results.DestRelation:
		stmt = func() (int64, error) { return 0, e.CreateTableAs(ctx, resultTable, sql, cols) }
	case results.DestCount:
		stmt = func() (int64, error) { return countOf(ctx, e, countSQL(sql)) }
	case results.DestClient:
		stmt = func() (int64, error) { return e.QueryCount(ctx, sql) }
	default:
		return destRun{}, fmt.Errorf("unknown destination %q", dest)
	}
	x, err := clock.around(ctx, engineStatement(sql, dest), func() (float64, int64, error) { return timed(ctx, stmt) })
	if err != nil || dest != results.DestRelation {
		return x, err
	}
	if x.rows, err = countOf(ctx, e, "SELECT COUNT(*) FROM "+resultTable); err != nil {
		return x, fmt.Errorf("count result relation: %w", err)
	}
	if err := e.DropTable(ctx, resultTable); err != nil {
		return x, fmt.Errorf("drop result relation: %w", err)
	}
	return x, nil
}

// countOf runs a one-value COUNT query.
func countOf(ctx context.Context, e dbms.Engine, sql string) (int64, error) {
	v, err := dbms.FirstValue(ctx, e, sql)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(v, 10, 64)
}
