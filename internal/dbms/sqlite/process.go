package sqlite

import (
	"context"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var (
	_ dbms.ProcessReporter = (*Engine)(nil)
	_ dbms.Explainer       = (*Engine)(nil)
)

// QueryProcess: SQLite runs inside dbgauge.
func (e *Engine) QueryProcess(context.Context) (dbms.Process, error) {
	return dbms.EmbeddedProcess("sqlite"), nil
}

// Explain returns EXPLAIN QUERY PLAN's detail lines, indented by depth.
func (e *Engine) Explain(ctx context.Context, query string) (string, error) {
	rows, err := e.QueryRows(ctx, "EXPLAIN QUERY PLAN "+query)
	if err != nil {
		return "", err
	}
	depth := map[string]int{"0": 0}
	var b strings.Builder
	for _, r := range rows { // id, parent, notused, detail
		if len(r) < 4 {
			continue
		}
		d := depth[r[1]] + 1
		depth[r[0]] = d
		b.WriteString(strings.Repeat("  ", d-1) + r[3] + "\n")
	}
	return b.String(), nil
}
