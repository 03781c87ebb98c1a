package dbmstest

import (
	"context"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// QueryMap runs q, a query of two columns, on e and maps each row's first
// value to its second; a failed query fails the test.
func QueryMap(t testing.TB, ctx context.Context, e dbms.Engine, q string) map[string]string {
	t.Helper()
	rows, err := e.QueryRows(ctx, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r[0]] = r[1]
	}
	return out
}
