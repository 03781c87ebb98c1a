package duckdb

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"math/big"
	"runtime"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// ctxCheckRows is how often Load looks at the context: often enough to stop
// promptly, rarely enough to cost nothing per row.
const ctxCheckRows = 4096

// Load streams rows into t through DuckDB's Appender, its fastest load path
// (what COPY and the client APIs use underneath): rows go into column vectors
// of one data chunk (2048 rows) that the appender hands to DuckDB, which
// writes them out in row groups as they fill, so memory stays constant. The
// appender runs on the session's own pinned connection, so the rows are
// visible to the session as soon as Load returns.
//
// DuckDB commits each of the appender's internal flushes (every ~200,000
// rows) on its own, unless the session has a transaction open: after a
// failure the rows flushed before it stay in the table. Wrapping the load in
// one transaction measured no faster, so Load leaves that choice to the caller.
func (e *Engine) Load(ctx context.Context, t dbms.Table, rows dbms.RowSource) (int64, error) {
	var n int64
	err := e.Conn.Raw(func(dc any) error {
		conn, ok := dc.(driver.Conn)
		if !ok {
			return fmt.Errorf("driver connection is %T, not a driver.Conn", dc)
		}
		schema, table := splitName(t.Name)
		app, err := duckdb.NewAppenderFromConn(conn, schema, table)
		if err != nil {
			return err
		}
		n, err = appendAll(ctx, app, t, rows)
		if err != nil {
			// Discard what was not flushed yet, then release the appender.
			return errors.Join(err, app.Clear(), app.Close())
		}
		// Close flushes the last rows.
		return app.CloseWithCancel(ctx)
	})
	if err != nil {
		return n, fmt.Errorf("load %s: %w", t.Name, classify(err))
	}
	return n, nil
}

func appendAll(ctx context.Context, app *duckdb.Appender, t dbms.Table, rows dbms.RowSource) (int64, error) {
	row := make([]any, len(t.Columns))
	// driver.Value is a distinct type, so []any does not convert: copy the
	// interface values (no allocation) into the slice the appender takes.
	vals := make([]driver.Value, len(t.Columns))
	var n int64
	for rows.Next(row) {
		if err := checkInts(t, row); err != nil {
			return n, fmt.Errorf("row %d: %w", n+1, err)
		}
		for i, v := range row {
			vals[i] = v
		}
		if err := decimals(t, vals); err != nil {
			return n, fmt.Errorf("row %d: %w", n+1, err)
		}
		if err := app.AppendRow(vals...); err != nil {
			return n, fmt.Errorf("row %d: %w", n+1, err)
		}
		n++
		if n%ctxCheckRows == 0 {
			if err := ctx.Err(); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// checkInts rejects values out of INTEGER's range: the driver would silently
// truncate an int64 into a four-byte column.
func checkInts(t dbms.Table, row []any) error {
	for i, c := range t.Columns {
		if c.Type != dbms.Int {
			continue
		}
		if v, ok := row[i].(int64); ok && (v < math.MinInt32 || v > math.MaxInt32) {
			return fmt.Errorf("column %s: %d does not fit in INTEGER", c.Name, v)
		}
	}
	return nil
}

// decimals replaces the text of Decimal values with what the appender
// takes for a DECIMAL column: the unscaled integer (-10.00 in DECIMAL(12,2)
// is -1000), which it stores as it is, or a duckdb.Decimal beyond 18 digits
// (stored as HUGEINT). A time.Time needs nothing: the appender stores its
// instant, which is its reading in UTC.
func decimals(t dbms.Table, vals []driver.Value) error {
	for i, c := range t.Columns {
		s, ok := vals[i].(string)
		if c.Type != dbms.Decimal || !ok {
			continue
		}
		var err error
		if c.Len <= 18 {
			vals[i], err = dbms.DecimalUnscaled(s, c.Scale)
		} else {
			var v *big.Int
			v, err = dbms.DecimalBig(s, c.Scale)
			vals[i] = duckdb.Decimal{Width: uint8(c.Len), Scale: uint8(c.Scale), Value: v}
		}
		if err != nil {
			return fmt.Errorf("column %s: %w", c.Name, err)
		}
	}
	return nil
}

// splitName splits "schema.table"; a bare name uses the default schema.
func splitName(name string) (schema, table string) {
	if s, t, ok := strings.Cut(name, "."); ok {
		return s, t
	}
	return "", name
}

var _ dbms.ConcurrentLoader = (*Engine)(nil)

// LoadSessions: appenders of several sessions fill one table at once
// (appends never conflict in DuckDB), each converting and compressing its
// own row groups on a thread of this process, so the bound is this
// machine's cores. Measured on 2 cores, 1,000,000 rows in 4 parts of a
// table of five columns (integers, text, a decimal, a time), three rounds:
// 1 session 550,000-950,000 rows/s, 2 sessions 900,000-1,270,000, 4 sessions
// 810,000-1,090,000.
func (e *Engine) LoadSessions() int { return min(runtime.NumCPU(), 8) }
