package dbmstest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// CheckTextQuerier runs the dbms.TextQuerier contract on e: statements with
// and without arguments, prepared or not, results as text with their
// column names, NULL as "", a "?" in a literal left alone, statements in a
// transaction rolled back with it, and a failure reported.
func CheckTextQuerier(t *testing.T, ctx context.Context, e Session, table string) {
	t.Helper()
	tq, ok := e.(dbms.TextQuerier)
	if !ok {
		t.Fatalf("%s has no dbms.TextQuerier", e.Name())
	}
	CreateAccounts(t, ctx, e, table, 5)
	ph := tq.Placeholder
	var res dbms.TextResult
	query := func(stmt string, args []any, prepared bool) [][]string {
		t.Helper()
		if err := tq.QueryText(ctx, stmt, args, prepared, &res); err != nil {
			t.Fatalf("%s %v (prepared %v): %v", stmt, args, prepared, err)
		}
		return res.Rows
	}
	sel := fmt.Sprintf("SELECT id, bal FROM %s WHERE id = %s", table, ph(1))
	for _, prepared := range []bool{false, true, true} {
		for _, arg := range []any{int64(3), "3"} {
			rows := query(sel, []any{arg}, prepared)
			if len(rows) != 1 || rows[0][0] != "3" || rows[0][1] != "0" {
				t.Fatalf("%s with %#v: rows %q, want [[3 0]]", sel, arg, rows)
			}
			if len(res.Columns) != 2 || !strings.EqualFold(res.Columns[0], "id") || !strings.EqualFold(res.Columns[1], "bal") {
				t.Fatalf("%s: columns %q, want id, bal", sel, res.Columns)
			}
		}
	}
	upd := fmt.Sprintf("UPDATE %s SET bal = bal + %s WHERE id = %s", table, ph(1), ph(2))
	if err := tq.QueryText(ctx, upd, []any{int64(7), int64(2)}, true, nil); err != nil {
		t.Fatalf("%s: %v", upd, err)
	}
	if got := Balance(t, ctx, e, table, 2); got != 7 {
		t.Fatalf("after %s balance %d, want 7", upd, got)
	}
	lit := fmt.Sprintf("SELECT id FROM %s WHERE id = 1 AND 'a?b' = 'a?b'", table)
	if rows := query(lit, nil, false); len(rows) != 1 || rows[0][0] != "1" {
		t.Fatalf("%s: %q, want [[1]]", lit, rows)
	}
	if _, err := e.Exec(ctx, fmt.Sprintf("UPDATE %s SET bal = NULL WHERE id = 4", table)); err != nil {
		t.Fatal(err)
	}
	if rows := query(sel, []any{int64(4)}, false); len(rows) != 1 || rows[0][1] != "" {
		t.Fatalf("NULL: %q, want [[4 \"\"]]", rows)
	}
	cnt := fmt.Sprintf("SELECT COUNT(*) AS n FROM %s WHERE bal = %s", table, ph(1))
	if rows := query(cnt, []any{nil}, false); len(rows) != 1 || rows[0][0] != "0" {
		t.Fatalf("%s with NULL: %q, want [[0]]", cnt, rows)
	}

	if err := e.Begin(ctx, dbms.RepeatableRead); err != nil {
		t.Fatal(err)
	}
	if !tq.InTransaction() {
		t.Fatal("InTransaction false after Begin")
	}
	if err := tq.QueryText(ctx, upd, []any{int64(100), int64(1)}, false, nil); err != nil {
		t.Fatalf("%s in a transaction: %v", upd, err)
	}
	if rows := query(sel, []any{int64(1)}, true); rows[0][1] != "100" {
		t.Fatalf("own write in the transaction: %q", rows)
	}
	if err := e.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if tq.InTransaction() {
		t.Fatal("InTransaction true after Rollback")
	}
	if got := Balance(t, ctx, e, table, 1); got != 0 {
		t.Fatalf("after rollback balance %d, want 0", got)
	}
	if err := tq.QueryText(ctx, "SELECT nothing FROM no_such_table_here", nil, false, &res); err == nil {
		t.Fatal("a query of a missing table succeeded")
	}
}
