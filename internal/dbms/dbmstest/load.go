package dbmstest

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// LoadTypesTable is the table of CheckLoadTypes: one column of every type.
func LoadTypesTable(name string) dbms.Table {
	return dbms.Table{Name: name, Columns: []dbms.Column{
		{Name: "id", Type: dbms.Int},
		{Name: "big_n", Type: dbms.BigInt},
		{Name: "code_c", Type: dbms.Char, Len: 4},
		{Name: "label_v", Type: dbms.Varchar, Len: 20},
		{Name: "amount_d", Type: dbms.Decimal, Len: 12, Scale: 2},
		{Name: "rate_d", Type: dbms.Decimal, Len: 4, Scale: 4},
		{Name: "at_t", Type: dbms.Timestamp},
	}}
}

// loadTypesRows are the rows CheckLoadTypes loads: NULLs in every column
// but id, negative and zero decimals, text LOAD DATA or a fixed-width file
// would treat specially (a tab, a backslash, \N, a quote), a time given in
// another zone than UTC, one past 2038.
func loadTypesRows() [][]any {
	ts := func(s string) time.Time {
		t, err := time.Parse("2006-01-02 15:04:05 -0700", s)
		if err != nil {
			panic(err)
		}
		return t
	}
	return [][]any{
		{int64(1), int64(1) << 40, "ab", "hello world", "-10.00", "0.1234", ts("2026-01-02 03:04:05 +0000")},
		{int64(2), int64(-5), "wxyz", "", "0.10", "0.0000", ts("2000-01-01 00:30:00 +0100")},
		{int64(3), nil, nil, nil, nil, nil, nil},
		{int64(4), -int64(1) << 40, "", `\N`, "0.20", "-0.5000", ts("2040-02-29 23:59:59 +0000")},
		{int64(5), int64(0), "q'\"", "tab\there\\back 'q'", "300000.00", "-0.0001", ts("1999-12-31 23:59:59 -0500")},
		{int64(6), int64(7), "z", "x", "0.00", "0.9999", ts("1970-01-01 00:00:01 +0000")},
		{int64(7), int64(8), "y", "-", "-9999999999.99", nil, ts("2026-11-28 12:00:00 +0000")},
	}
}

// Rows is a dbms.RowSource over rows in memory.
func Rows(rows ...[]any) dbms.RowSource { return &sliceSource{rows: rows} }

type sliceSource struct {
	rows [][]any
	i    int
}

func (s *sliceSource) Next(row []any) bool {
	if s.i == len(s.rows) {
		return false
	}
	copy(row, s.rows[s.i])
	s.i++
	return true
}

// CheckLoadTypes creates table in LoadTypesTable's form, loads rows of
// every column type with NULLs through e.Load (the RowSource contract in
// dbms.RowSource) and reads them back with QueryRows: integers and text
// exactly, decimals as exact numbers at their scale (rounded to it only on
// a dbms.InexactDecimal engine), times as their UTC reading to the second,
// NULL apart from empty text, and the exact SUM of decimal columns.
func CheckLoadTypes(t *testing.T, ctx context.Context, e dbms.Engine, table string) {
	t.Helper()
	tab := LoadTypesTable(table)
	if err := e.DropTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	if err := e.CreateTable(ctx, tab); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.DropTable(context.WithoutCancel(ctx), table) })
	want := loadTypesRows()
	n, err := e.Load(ctx, tab, Rows(want...))
	if err != nil || n != int64(len(want)) {
		t.Fatalf("Load = %d, %v; want %d rows", n, err, len(want))
	}
	_, inexact := e.(dbms.InexactDecimal)

	got := queryRows(t, ctx, e, fmt.Sprintf("SELECT id, big_n, code_c, label_v, amount_d, rate_d, at_t FROM %s ORDER BY id", table))
	if len(got) != len(want) {
		t.Fatalf("read back %d rows, want %d: %q", len(got), len(want), got)
	}
	// How the engine renders these types, for a reader of -v output.
	t.Logf("%s renders row 1 as %q", e.Name(), got[0])
	for r, w := range want {
		for c, col := range tab.Columns {
			if msg := compareLoaded(col, w[c], got[r][c], inexact); msg != "" {
				t.Errorf("row %d column %s: %s", r+1, col.Name, msg)
			}
		}
	}

	// QueryRows renders NULL and empty text alike: count the non-NULL
	// values of each column and the empty texts.
	counts := queryRows(t, ctx, e, fmt.Sprintf("SELECT COUNT(big_n), COUNT(code_c), COUNT(label_v), COUNT(amount_d), COUNT(rate_d), COUNT(at_t) FROM %s", table))
	for c, col := range tab.Columns[1:] {
		wantN := 0
		for _, w := range want {
			if w[c+1] != nil {
				wantN++
			}
		}
		if counts[0][c] != fmt.Sprint(wantN) {
			t.Errorf("COUNT(%s) = %s, want %d: NULL not loaded as NULL", col.Name, counts[0][c], wantN)
		}
	}
	if v := queryRows(t, ctx, e, fmt.Sprintf("SELECT COUNT(*) FROM %s WHERE label_v = ''", table)); v[0][0] != "1" {
		t.Errorf("rows whose label is empty text: %s, want 1 (row 2; row 3's is NULL)", v[0][0])
	}

	sums := []struct{ query, want string }{
		{fmt.Sprintf("SELECT SUM(amount_d) FROM %s WHERE id IN (2, 4)", table), "0.30"},
		{fmt.Sprintf("SELECT SUM(amount_d) FROM %s", table), "-9999700009.69"},
		{fmt.Sprintf("SELECT SUM(rate_d) FROM %s", table), "0.6232"},
	}
	for i, s := range sums {
		v := queryRows(t, ctx, e, s.query)[0][0]
		t.Logf("%s: %s", s.query, v)
		col := tab.Columns[4]
		if i == 2 {
			col = tab.Columns[5]
		}
		if msg := compareDecimal(col, s.want, v, inexact); msg != "" {
			t.Errorf("%s: %s", s.query, msg)
		}
	}
}

func queryRows(t *testing.T, ctx context.Context, e dbms.Engine, q string) [][]string {
	t.Helper()
	rows, err := e.QueryRows(ctx, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return rows
}

// compareLoaded says how got, a value read back, differs from the value
// loaded ("" when it does not).
func compareLoaded(col dbms.Column, loaded any, got string, inexact bool) string {
	switch v := loaded.(type) {
	case nil:
		if got != "" {
			return fmt.Sprintf("got %q, want NULL", got)
		}
	case int64:
		if got != fmt.Sprint(v) {
			return fmt.Sprintf("got %q, want %d", got, v)
		}
	case string:
		if col.Type == dbms.Decimal {
			return compareDecimal(col, v, got, inexact)
		}
		// QueryRows drops the blanks a CHAR pads with.
		if got != strings.TrimRight(v, " ") {
			return fmt.Sprintf("got %q, want %q", got, v)
		}
	case time.Time:
		tm, ok := parseTime(got)
		want := v.UTC().Format(time.DateTime)
		if !ok || tm.Format(time.DateTime) != want {
			return fmt.Sprintf("got %q, want %s (the UTC reading of %s)", got, want, v)
		}
	default:
		return fmt.Sprintf("test bug: value %T", loaded)
	}
	return ""
}

// compareDecimal compares got with want as exact numbers; on an inexact
// engine got is rounded to the column's scale first.
func compareDecimal(col dbms.Column, want, got string, inexact bool) string {
	w, ok := new(big.Rat).SetString(want)
	if !ok {
		return "test bug: " + want
	}
	g, ok := new(big.Rat).SetString(got)
	if !ok {
		return fmt.Sprintf("got %q, not a number; want %s", got, want)
	}
	if inexact {
		g.SetString(g.FloatString(col.Scale))
	}
	if g.Cmp(w) != 0 {
		return fmt.Sprintf("got %s, want %s", got, want)
	}
	return ""
}

// parseTime reads a timestamp as the engines render it: RFC 3339 (a
// time.Time the driver decoded) or SQL's "2006-01-02 15:04:05[.fff]". The
// reading is taken as it is shown, whatever zone it names.
func parseTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999 -0700 MST"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
