package mysql

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// insertBatchRows is the fallback's batch: large enough that per-statement
// cost is small against per-row cost, small enough to stay far below
// max_allowed_packet with Wisconsin-width rows.
const insertBatchRows = 1000

// insertLoad is the path for servers that refuse LOAD DATA LOCAL: multi-row
// INSERTs of insertBatchRows rows in one transaction. Values go as
// placeholders that the driver interpolates client-side (one round trip per
// batch, escaping that follows the server's sql_mode).
func (e *Engine) insertLoad(ctx context.Context, t dbms.Table, rows dbms.RowSource) (int64, error) {
	e.loadPath = PathInsert
	limit, err := e.batchBytes(ctx)
	if err != nil {
		return 0, fmt.Errorf("load %s: %w", t.Name, err)
	}
	tx, err := e.Conn.BeginTx(ctx, nil)
	if err != nil {
		return 0, classify(err)
	}
	defer tx.Rollback() // no-op after Commit

	ncol := len(t.Columns)
	head := fmt.Sprintf("INSERT INTO %s (%s) VALUES ", t.Name, columnNames(t))
	tuple := "(" + strings.TrimSuffix(strings.Repeat("?,", ncol), ",") + ")"
	var (
		sb    strings.Builder
		args  = make([]any, 0, insertBatchRows*ncol)
		row   = make([]any, ncol)
		inBat int
		size  int
		total int64
	)
	flush := func() error {
		if inBat == 0 {
			return nil
		}
		sb.Reset()
		sb.WriteString(head)
		for i := 0; i < inBat; i++ {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(tuple)
		}
		res, err := tx.ExecContext(ctx, sb.String(), args...)
		if err != nil {
			return classify(err)
		}
		n, _ := res.RowsAffected()
		total += n
		args, inBat, size = args[:0], 0, 0
		return nil
	}
	for {
		clear(row)
		if !rows.Next(row) {
			break
		}
		for i, v := range row {
			switch x := v.(type) {
			case int64, int, int32, nil:
				size += 21
			case string:
				size += 2*len(x) + 3
			case time.Time:
				// The driver would send the reading in its loc setting.
				args = append(args, x.UTC().Format(timeLayout))
				size += 30
				continue
			case []byte:
				args = append(args, string(x)) // []byte would be sent as binary
				size += 2*len(x) + 3
				continue
			default:
				return total, fmt.Errorf("load %s: row %d column %d: unsupported value %T", t.Name, total+int64(inBat)+1, i+1, v)
			}
			args = append(args, v)
		}
		inBat++
		if inBat == insertBatchRows || size >= limit {
			if err := flush(); err != nil {
				return total, fmt.Errorf("load %s: %w", t.Name, err)
			}
		}
	}
	if err := flush(); err != nil {
		return total, fmt.Errorf("load %s: %w", t.Name, err)
	}
	if err := tx.Commit(); err != nil {
		return total, fmt.Errorf("load %s: commit: %w", t.Name, classify(err))
	}
	return total, nil
}

// batchBytes is how much value text one INSERT may carry: half the server's
// max_allowed_packet (room for syntax and escapes), at most 8 MiB.
func (e *Engine) batchBytes(ctx context.Context) (int, error) {
	v, err := e.QueryValue(ctx, "SELECT @@max_allowed_packet")
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("max_allowed_packet %q: %w", v, err)
	}
	return min(n/2, 8<<20), nil
}
