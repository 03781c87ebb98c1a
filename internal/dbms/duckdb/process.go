package duckdb

import (
	"context"
	"regexp"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var (
	_ dbms.ProcessReporter = (*Engine)(nil)
	_ dbms.Explainer       = (*Engine)(nil)
)

// QueryProcess: DuckDB runs inside dbgauge (its worker threads too).
func (e *Engine) QueryProcess(context.Context) (dbms.Process, error) {
	return dbms.EmbeddedProcess("duckdb"), nil
}

// estimate matches DuckDB's estimated cardinalities ("~1,000 rows",
// "EC: 1000") in the plan boxes.
var estimate = regexp.MustCompile(`~[0-9,.]+\s*rows?|EC:\s*[0-9,.]+`)

// Explain returns the physical plan with the estimates blanked.
func (e *Engine) Explain(ctx context.Context, query string) (string, error) {
	rows, err := e.QueryRows(ctx, "EXPLAIN "+query)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, r := range rows { // explain_key, explain_value
		if len(r) == 2 {
			b.WriteString(estimate.ReplaceAllString(r[1], "~"))
			b.WriteByte('\n')
		}
	}
	return b.String(), nil
}
