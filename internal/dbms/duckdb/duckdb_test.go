package duckdb

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
)

const testRows = 10000

var testTable = dbms.Table{Name: "tenk", Columns: []dbms.Column{
	{Name: "unique1", Type: dbms.Int},
	{Name: "unique2", Type: dbms.BigInt},
	{Name: "stringu1", Type: dbms.Char, Len: 52},
}}

// permSource yields n rows: unique2 = i in order, unique1 a permutation of
// 0..n-1 that is not in order (7919 is prime, so i*7919 mod n is one when n
// is not a multiple of it), stringu1 a padded text of unique1.
type permSource struct{ i, n int64 }

func (s *permSource) Next(row []any) bool {
	if s.i >= s.n {
		return false
	}
	u1 := s.i * 7919 % s.n
	row[0], row[1], row[2] = u1, s.i, fmt.Sprintf("%-52s", "A"+strconv.FormatInt(u1, 10))
	s.i++
	return true
}

func openURL(t *testing.T, url string) *Engine {
	t.Helper()
	e, err := dbms.Open(context.Background(), url)
	if err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	t.Cleanup(func() { e.Close() })
	return e.(*Engine)
}

func openFile(t *testing.T) (*Engine, string) {
	path := filepath.Join(t.TempDir(), "bench.db")
	return openURL(t, "duckdb:"+path), path
}

func mustValue(t *testing.T, e *Engine, q string) string {
	t.Helper()
	v, err := e.value(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v
}

func mustExec(t *testing.T, e dbms.Engine, q string) {
	t.Helper()
	if _, err := e.Exec(context.Background(), q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func loadTable(t *testing.T, e *Engine) {
	t.Helper()
	ctx := context.Background()
	if err := e.CreateTable(ctx, testTable); err != nil {
		t.Fatal(err)
	}
	n, err := e.Load(ctx, testTable, &permSource{n: testRows})
	if err != nil {
		t.Fatal(err)
	}
	if n != testRows {
		t.Fatalf("Load returned %d rows, want %d", n, testRows)
	}
}

func TestOpenAndInfo(t *testing.T) {
	e, path := openFile(t)
	if e.Name() != "duckdb" {
		t.Errorf("Name = %q", e.Name())
	}
	info, err := e.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(info.Version, "v1.") {
		t.Errorf("Version = %q, want v1.x", info.Version)
	}
	if info.DriverVersion != "v2.10505.0" || info.Driver != driverModule {
		t.Errorf("driver = %s %s", info.Driver, info.DriverVersion)
	}
	if info.BufferPoolBytes <= 0 {
		t.Errorf("BufferPoolBytes = %d", info.BufferPoolBytes)
	}
	for _, k := range []string{"threads", "memory_limit", "temp_directory", "default_block_size", "source_id", "database_size"} {
		if info.Settings[k] == "" {
			t.Errorf("setting %s missing: %v", k, info.Settings)
		}
	}
	if info.Settings["path"] != path {
		t.Errorf("path = %q, want %q", info.Settings["path"], path)
	}
}

// URL query parameters are DuckDB settings.
func TestURLSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	e := openURL(t, "duckdb:"+path+"?threads=1&memory_limit=256MiB")
	info, err := e.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Settings["threads"] != "1" {
		t.Errorf("threads = %q, want 1", info.Settings["threads"])
	}
	if info.BufferPoolBytes != 256<<20 {
		t.Errorf("BufferPoolBytes = %d, want %d", info.BufferPoolBytes, 256<<20)
	}
}

func TestLoadVisibleToSession(t *testing.T) {
	e, _ := openFile(t)
	loadTable(t, e)
	// Same session, right after Load: the appender's rows are there.
	if got := mustValue(t, e, "SELECT count(*) FROM tenk"); got != strconv.Itoa(testRows) {
		t.Fatalf("count = %s, want %d", got, testRows)
	}
	var sum1, sumProd, sumLen int64
	src := &permSource{n: testRows}
	row := make([]any, 3)
	for src.Next(row) {
		sum1 += row[0].(int64)
		sumProd += row[0].(int64) * row[1].(int64)
		sumLen += int64(len(row[2].(string)))
	}
	// sum() of integers is a HUGEINT: this also checks QueryRows renders it.
	got, err := e.QueryRows(context.Background(), "SELECT sum(unique1), sum(unique1::BIGINT * unique2), sum(length(stringu1)), count(DISTINCT stringu1) FROM tenk")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{fmt.Sprint(sum1), fmt.Sprint(sumProd), fmt.Sprint(sumLen), strconv.Itoa(testRows)}
	if strings.Join(got[0], ",") != strings.Join(want, ",") {
		t.Errorf("checksums = %v, want %v", got[0], want)
	}
	// Padding is stored as given (VARCHAR) and trimmed by QueryRows.
	if got := mustValue(t, e, "SELECT stringu1 FROM tenk WHERE unique2 = 1"); got != "A7919" {
		t.Errorf("stringu1 = %q", got)
	}
	if got := mustValue(t, e, "SELECT length(stringu1) FROM tenk WHERE unique2 = 1"); got != "52" {
		t.Errorf("length(stringu1) = %q, want 52", got)
	}
	if n, err := e.QueryCount(context.Background(), "SELECT * FROM tenk WHERE unique2 < 100"); err != nil || n != 100 {
		t.Errorf("QueryCount = %d, %v", n, err)
	}
}

func TestLoadRejectsIntOverflow(t *testing.T) {
	e, _ := openFile(t)
	ctx := context.Background()
	tab := dbms.Table{Name: "small", Columns: []dbms.Column{{Name: "a", Type: dbms.Int}}}
	if err := e.CreateTable(ctx, tab); err != nil {
		t.Fatal(err)
	}
	_, err := e.Load(ctx, tab, &sliceSource{vals: []int64{1, 1 << 40}})
	if err == nil || !strings.Contains(err.Error(), "does not fit in INTEGER") {
		t.Fatalf("Load of 2^40 into INTEGER: err = %v", err)
	}
	// The session still works after a failed load.
	mustValue(t, e, "SELECT count(*) FROM small")
}

// cancelSource cancels the load's context halfway through.
type cancelSource struct {
	permSource
	cancel func()
}

func (s *cancelSource) Next(row []any) bool {
	if s.i == s.n/2 {
		s.cancel()
	}
	return s.permSource.Next(row)
}

func TestLoadStopsOnCancel(t *testing.T) {
	e, _ := openFile(t)
	if err := e.CreateTable(context.Background(), testTable); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n, err := e.Load(ctx, testTable, &cancelSource{permSource{n: 20000}, cancel})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n < 10000 || n > 10000+ctxCheckRows {
		t.Errorf("stopped after %d rows, want soon after 10000", n)
	}
	// Nothing was flushed yet: the table is empty and the session works.
	if got := mustValue(t, e, "SELECT count(*) FROM tenk"); got != "0" {
		t.Errorf("count after cancelled load = %s, want 0", got)
	}
}

func TestLoadUnknownTable(t *testing.T) {
	e, _ := openFile(t)
	_, err := e.Load(context.Background(), dbms.Table{Name: "nope", Columns: testTable.Columns}, &permSource{n: 10})
	if err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("load into a missing table: %v", err)
	}
}

type sliceSource struct{ vals []int64 }

func (s *sliceSource) Next(row []any) bool {
	if len(s.vals) == 0 {
		return false
	}
	row[0], s.vals = s.vals[0], s.vals[1:]
	return true
}

func TestInMemory(t *testing.T) {
	e := openURL(t, "duckdb::memory:?threads=1")
	loadTable(t, e)
	if got := mustValue(t, e, "SELECT count(*) FROM tenk"); got != strconv.Itoa(testRows) {
		t.Fatalf("count = %s", got)
	}
	info, err := e.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Settings["path"] != ":memory:" || info.Settings["threads"] != "1" {
		t.Errorf("settings = %v", info.Settings)
	}
}

func TestIndexes(t *testing.T) {
	e, _ := openFile(t)
	ctx := context.Background()
	loadTable(t, e)
	if err := e.CreateIndex(ctx, "tenk", "tenk_u2", "unique2", dbms.BTree, true); err != nil {
		t.Fatal(err)
	}
	if got := mustValue(t, e, "SELECT count(*) FROM duckdb_indexes() WHERE index_name = 'tenk_u2' AND is_unique"); got != "1" {
		t.Errorf("unique index tenk_u2: count = %s", got)
	}
	err := e.CreateIndex(ctx, "tenk", "tenk_h", "unique1", dbms.Hash, false)
	if !errors.Is(err, dbms.ErrNotSupported) || dbms.Classify(err) != dbms.Unsupported || !strings.Contains(err.Error(), "ART") {
		t.Errorf("hash index: err = %v, class %v", err, dbms.Classify(err))
	}
	if err := e.DropIndex(ctx, "tenk", "tenk_u2"); err != nil {
		t.Fatal(err)
	}
	if got := mustValue(t, e, "SELECT count(*) FROM duckdb_indexes() WHERE index_name = 'tenk_u2'"); got != "0" {
		t.Errorf("after DropIndex: %s indexes", got)
	}
	if err := e.Analyze(ctx, "tenk"); err != nil {
		t.Fatal(err)
	}
}

// physicallyOrdered checks storage order (rowid) follows column.
func physicallyOrdered(t *testing.T, e *Engine, column string) bool {
	t.Helper()
	ok, err := e.ordered(context.Background(), "tenk", column)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func TestCluster(t *testing.T) {
	e, _ := openFile(t)
	ctx := context.Background()
	loadTable(t, e)
	if physicallyOrdered(t, e, "unique1") {
		t.Fatal("test data is already ordered on unique1: the test proves nothing")
	}
	// An index made before Cluster must survive the rebuild.
	if err := e.CreateIndex(ctx, "tenk", "tenk_u2", "unique2", dbms.BTree, false); err != nil {
		t.Fatal(err)
	}
	if err := e.Cluster(ctx, testTable, "tenk_u1", "unique1"); err != nil {
		t.Fatal(err)
	}
	if !physicallyOrdered(t, e, "unique1") {
		t.Error("after Cluster the table is not stored in unique1 order")
	}
	// Without ORDER BY, a scan returns rows in storage order.
	rows, err := e.QueryRows(ctx, "SELECT unique1 FROM tenk LIMIT 5")
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if r[0] != strconv.Itoa(i) {
			t.Errorf("row %d: unique1 = %s", i, r[0])
		}
	}
	idx, err := e.indexes(ctx, "tenk")
	if err != nil {
		t.Fatal(err)
	}
	if len(idx) != 2 || idx[0].name != "tenk_u1" || idx[1].name != "tenk_u2" {
		t.Errorf("indexes after Cluster = %v, want tenk_u1 and tenk_u2", idx)
	}
	if got := mustValue(t, e, "SELECT count(*) FROM tenk"); got != strconv.Itoa(testRows) {
		t.Errorf("count after Cluster = %s", got)
	}
	// Again on an ordered table with the index present: nothing to do, no error.
	if err := e.Cluster(ctx, testTable, "tenk_u1", "unique1"); err != nil {
		t.Fatal(err)
	}
	// Clustering on another column reorders again.
	if err := e.Cluster(ctx, testTable, "tenk_u2", "unique2"); err != nil {
		t.Fatal(err)
	}
	if !physicallyOrdered(t, e, "unique2") {
		t.Error("after Cluster on unique2 the table is not stored in unique2 order")
	}
}

// Cluster must order the table even when the URL lets DuckDB reorder inserts,
// and leave that setting as it found it. (At test sizes DuckDB inserts in
// order anyway; the reordering it is allowed shows with many row groups.)
func TestClusterWithoutInsertionOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	e := openURL(t, "duckdb:"+path+"?preserve_insertion_order=false")
	loadTable(t, e)
	if err := e.Cluster(context.Background(), testTable, "tenk_u1", "unique1"); err != nil {
		t.Fatal(err)
	}
	if !physicallyOrdered(t, e, "unique1") {
		t.Error("not ordered on unique1")
	}
	if got := mustValue(t, e, "SELECT current_setting('preserve_insertion_order')"); got != "false" {
		t.Errorf("preserve_insertion_order left at %s, want false", got)
	}
}

func TestCreateTableAsAndDrop(t *testing.T) {
	e, _ := openFile(t)
	ctx := context.Background()
	loadTable(t, e)
	cols := []dbms.Column{{Name: "unique1", Type: dbms.Int}, {Name: "unique2", Type: dbms.BigInt}}
	if err := e.CreateTableAs(ctx, "tmp1", "SELECT unique1, unique2 FROM tenk WHERE unique2 < 1000", cols); err != nil {
		t.Fatal(err)
	}
	if got := mustValue(t, e, "SELECT count(*) FROM tmp1"); got != "1000" {
		t.Errorf("count(tmp1) = %s, want 1000", got)
	}
	if got := mustValue(t, e, "SELECT data_type FROM duckdb_columns() WHERE table_name = 'tmp1' AND column_name = 'unique1'"); got != "INTEGER" {
		t.Errorf("tmp1.unique1 type = %s", got)
	}
	for _, tab := range []string{"tmp1", "tenk", "never_created"} {
		if err := e.DropTable(ctx, tab); err != nil {
			t.Fatalf("DropTable %s: %v", tab, err)
		}
	}
	if got := mustValue(t, e, "SELECT count(*) FROM duckdb_tables() WHERE table_name IN ('tmp1', 'tenk')"); got != "0" {
		t.Errorf("%s tables left", got)
	}
}

// TestReconnectKeepsMemoryDatabase: Reconnect closes the session's
// connection; an in-memory database belongs to the driver's connector,
// not to the connection, so its tables are still there.
func TestReconnectKeepsMemoryDatabase(t *testing.T) {
	ctx := context.Background()
	e := openURL(t, "duckdb::memory:")
	if _, err := e.Exec(ctx, "CREATE TABLE kept AS SELECT 42 AS v"); err != nil {
		t.Fatal(err)
	}
	if err := e.Reconnect(ctx); err != nil {
		t.Fatal(err)
	}
	if v, err := e.QueryInt(ctx, "SELECT v FROM kept"); err != nil || v != 42 {
		t.Errorf("after Reconnect: %d, %v: want the in-memory table's 42", v, err)
	}
}

// TestLoadTypes holds the appender path to the RowSource contract: every
// column type, NULLs, exact decimals.
func TestLoadTypes(t *testing.T) {
	e, _ := openFile(t)
	dbmstest.CheckLoadTypes(t, context.Background(), e, "typed")
}

// TestLoadWideDecimal loads a DECIMAL of more than 18 digits, which DuckDB
// keeps as a HUGEINT: the appender takes it as a duckdb.Decimal.
func TestLoadWideDecimal(t *testing.T) {
	e, _ := openFile(t)
	ctx := context.Background()
	tab := dbms.Table{Name: "wide", Columns: []dbms.Column{{Name: "d", Type: dbms.Decimal, Len: 30, Scale: 2}}}
	if err := e.CreateTable(ctx, tab); err != nil {
		t.Fatal(err)
	}
	const v = "-1234567890123456789012.34"
	if _, err := e.Load(ctx, tab, dbmstest.Rows([]any{v}, []any{"0.01"})); err != nil {
		t.Fatal(err)
	}
	if got := mustValue(t, e, "SELECT CAST(SUM(d) AS VARCHAR) FROM wide"); got != "-1234567890123456789012.33" {
		t.Errorf("sum = %s, want -1234567890123456789012.33", got)
	}
}
