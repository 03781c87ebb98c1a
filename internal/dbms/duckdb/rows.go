package duckdb

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// QueryRows returns all rows of q as strings. It replaces SQLBase's because
// DuckDB returns values database/sql cannot scan into a string: sum() of
// integers is a HUGEINT (*big.Int), lists and structs are Go values.
func (e *Engine) QueryRows(ctx context.Context, q string) ([][]string, error) {
	rows, err := e.Conn.QueryContext(ctx, q)
	if err != nil {
		return nil, classify(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, classify(err)
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var out [][]string
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return out, classify(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = text(v)
		}
		out = append(out, row)
	}
	return out, classify(rows.Err())
}

// text renders a scanned value like SQLBase does: NULL as "", trailing
// blanks of padded text removed.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimRight(x, " ")
	case []byte:
		return strings.TrimRight(string(x), " ")
	case time.Time:
		return x.Format(time.RFC3339Nano)
	default:
		return fmt.Sprint(x)
	}
}

// value returns the first column of the first row of q.
func (e *Engine) value(ctx context.Context, q string) (string, error) {
	rows, err := e.QueryRows(ctx, q)
	if err != nil {
		return "", err
	}
	if len(rows) == 0 || len(rows[0]) == 0 {
		return "", fmt.Errorf("%s: no rows", q)
	}
	return rows[0][0], nil
}
