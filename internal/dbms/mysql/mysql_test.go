package mysql

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

const testRows = 10_000

// TestMariaDB runs the adapter against one private MariaDB: subtests share
// the instance (a start costs more than all of them together).
func TestMariaDB(t *testing.T) {
	inst := servertest.Start(t, "mariadb", server.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	e := open(t, ctx, inst.URL)

	t.Run("Info", func(t *testing.T) { testInfo(t, ctx, e) })
	t.Run("TextQuerier", func(t *testing.T) { dbmstest.CheckTextQuerier(t, ctx, e, "tq_acct") })
	t.Run("LoadLocalInfile", func(t *testing.T) { testLoad(t, ctx, e) })
	t.Run("LoadInsertFallback", func(t *testing.T) { testLoadFallback(t, ctx, e) })
	t.Run("LoadShortCount", func(t *testing.T) { testLoadShortCount(t, ctx, e) })
	t.Run("LoadTypes", func(t *testing.T) { dbmstest.CheckLoadTypes(t, ctx, e, "typed") })
	t.Run("Indexes", func(t *testing.T) { testIndexes(t, ctx, e) })
	t.Run("Cluster", func(t *testing.T) { testCluster(t, ctx, e, inst.URL) })
	t.Run("CreateTableAs", func(t *testing.T) { testCreateTableAs(t, ctx, e) })
	t.Run("FlushCache", func(t *testing.T) { testFlushCache(t, ctx, e) })
	t.Run("QueryProcess", func(t *testing.T) {
		// The private server keeps performance_schema on (for the
		// engine's own times): the connection's own thread is found.
		if p := dbmstest.CheckProcess(t, ctx, e, "mariadbd"); p.TID == 0 || p.TID == p.PID {
			t.Errorf("thread %d of process %d: want the connection's own thread from performance_schema", p.TID, p.PID)
		}
	})
	t.Run("Explain", func(t *testing.T) { dbmstest.CheckExplain(t, ctx, e, "ex_acct", true) })
	t.Run("OpenErrors", func(t *testing.T) { testOpenErrors(t, ctx, inst) })
	t.Run("MultiHostPlain", func(t *testing.T) { testMultiHostPlain(t, ctx, inst) })
	t.Run("RuntimeErrors", func(t *testing.T) { testRuntimeErrors(t, ctx, e, inst.URL) })
	t.Run("DropTable", func(t *testing.T) {
		for _, name := range []string{"t", "t_ins", "t_as"} {
			if err := e.DropTable(ctx, name); err != nil {
				t.Fatal(err)
			}
		}
		if got := value(t, ctx, e, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN ('t', 't_ins', 't_as')"); got != "0" {
			t.Errorf("%s tables left after DropTable", got)
		}
	})
}

func open(t *testing.T, ctx context.Context, url string) *Engine {
	t.Helper()
	eng, err := dbms.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return eng.(*Engine)
}

func value(t *testing.T, ctx context.Context, e *Engine, q string) string {
	t.Helper()
	v, err := e.QueryValue(ctx, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v
}

func testInfo(t *testing.T, ctx context.Context, e *Engine) {
	info, err := e.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.Engine != "mysql" || !strings.Contains(info.Version, "MariaDB") {
		t.Errorf("engine %q version %q: want mysql and a MariaDB version", info.Engine, info.Version)
	}
	if info.BufferPoolBytes <= 0 || fmt.Sprint(info.BufferPoolBytes) != info.Settings["innodb_buffer_pool_size"] {
		t.Errorf("BufferPoolBytes = %d, setting %q", info.BufferPoolBytes, info.Settings["innodb_buffer_pool_size"])
	}
	if info.Driver != driverModule || !strings.HasPrefix(info.DriverVersion, "v1.") {
		t.Errorf("driver %q %q", info.Driver, info.DriverVersion)
	}
	for k, want := range map[string]string{"innodb_page_size": "16384", "local_infile": "ON", "innodb_flush_log_at_trx_commit": "1", "query_cache_type": "OFF"} {
		if info.Settings[k] != want {
			t.Errorf("setting %s = %q, want %q", k, info.Settings[k], want)
		}
	}
	for _, k := range []string{"version_comment", "sync_binlog", "innodb_doublewrite"} {
		if _, ok := info.Settings[k]; !ok {
			t.Errorf("setting %s missing", k)
		}
	}
	if _, ok := info.Settings["load_path"]; ok {
		t.Errorf("load_path reported before any load")
	}
}

// checkLoaded asserts table holds exactly the rows genRows yields.
func checkLoaded(t *testing.T, ctx context.Context, e *Engine, table string) {
	t.Helper()
	rows, err := e.QueryRows(ctx, "SELECT COUNT(*), SUM(id), SUM(k), SUM(big), SUM(CRC32(s)) FROM "+table)
	if err != nil {
		t.Fatal(err)
	}
	want := wantSums(testRows)
	got := rows[0]
	if got[0] != fmt.Sprint(testRows) || [4]string(got[1:]) != want {
		t.Errorf("%s: count and sums %q, want %d %q", table, got, testRows, want)
	}
	// The escaped characters arrive as themselves, not as escapes or NULL.
	if s := value(t, ctx, e, "SELECT s FROM "+table+" WHERE id = 97"); s != "s00097\ttab" {
		t.Errorf("row 97 s = %q", s)
	}
	if s := value(t, ctx, e, "SELECT COUNT(*) FROM "+table+" WHERE s IS NULL"); s != "0" {
		t.Errorf("%s NULL strings", s)
	}
}

func testLoad(t *testing.T, ctx context.Context, e *Engine) {
	if err := e.CreateTable(ctx, testTable); err != nil {
		t.Fatal(err)
	}
	n, err := e.Load(ctx, testTable, &genRows{n: testRows})
	if err != nil {
		t.Fatal(err)
	}
	if n != testRows {
		t.Errorf("Load returned %d, want %d", n, testRows)
	}
	checkLoaded(t, ctx, e, "t")
	if e.LoadPath() != PathLocalInfile {
		t.Errorf("load path %q, want %q", e.LoadPath(), PathLocalInfile)
	}
	info, err := e.Info(ctx)
	if err != nil || info.Settings["load_path"] != PathLocalInfile {
		t.Errorf("Info load_path %q (%v)", info.Settings["load_path"], err)
	}
	if got := value(t, ctx, e, "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 't'"); got != "InnoDB" {
		t.Errorf("engine %q", got)
	}
}

func testLoadFallback(t *testing.T, ctx context.Context, e *Engine) {
	if _, err := e.Exec(ctx, "SET GLOBAL local_infile = 0"); err != nil {
		t.Fatal(err)
	}
	defer e.Exec(ctx, "SET GLOBAL local_infile = 1")
	tbl := testTable
	tbl.Name = "t_ins"
	if err := e.CreateTable(ctx, tbl); err != nil {
		t.Fatal(err)
	}
	n, err := e.Load(ctx, tbl, &genRows{n: testRows})
	if err != nil {
		t.Fatal(err)
	}
	if n != testRows || e.LoadPath() != PathInsert {
		t.Errorf("Load = %d via %q, want %d via %q", n, e.LoadPath(), testRows, PathInsert)
	}
	checkLoaded(t, ctx, e, "t_ins")
	dbmstest.CheckLoadTypes(t, ctx, e, "typed_ins")
	if e.LoadPath() != PathInsert {
		t.Errorf("typed rows loaded via %q, want %q", e.LoadPath(), PathInsert)
	}
}

// testLoadShortCount: rows the server drops (LOCAL turns duplicate keys into
// warnings) must fail the load, not pass silently.
func testLoadShortCount(t *testing.T, ctx context.Context, e *Engine) {
	if _, err := e.Exec(ctx, "CREATE TABLE t_dup (id INT PRIMARY KEY, k INT, big BIGINT, s CHAR(24)) ENGINE=InnoDB"); err != nil {
		t.Fatal(err)
	}
	defer e.DropTable(ctx, "t_dup")
	tbl := testTable
	tbl.Name = "t_dup"
	rows := &dupRows{genRows{n: 100}}
	_, err := e.Load(ctx, tbl, rows)
	if err == nil {
		t.Fatal("load with duplicate keys reported no error")
	}
	if !strings.Contains(err.Error(), "51 of 100 rows") || !strings.Contains(err.Error(), "Duplicate entry") {
		t.Errorf("duplicate load: %v, want the counts and the server's warning", err)
	}
	if got := value(t, ctx, e, "SELECT COUNT(*) FROM t_dup"); got != "0" {
		t.Errorf("%s rows kept after a failed load, want 0 (rolled back)", got)
	}
	// A source that fails half way leaves the table empty too.
	_, err = e.Load(ctx, tbl, &badRows{genRows{n: 5000}})
	if err == nil || !strings.Contains(err.Error(), "unsupported value float64") {
		t.Errorf("load of a bad value: %v", err)
	}
	if got := value(t, ctx, e, "SELECT COUNT(*) FROM t_dup"); got != "0" {
		t.Errorf("%s rows kept after a failed load, want 0 (rolled back)", got)
	}
}

// badRows yields a value no column type takes after 4000 good rows.
type badRows struct{ genRows }

func (b *badRows) Next(row []any) bool {
	if !b.genRows.Next(row) {
		return false
	}
	if b.i > 4000 {
		row[1] = 1.5
	}
	return true
}

// dupRows repeats every id twice.
type dupRows struct{ genRows }

func (d *dupRows) Next(row []any) bool {
	if !d.genRows.Next(row) {
		return false
	}
	row[0] = row[0].(int64) / 2
	return true
}

func indexes(t *testing.T, ctx context.Context, e *Engine, table string) map[string]string {
	t.Helper()
	return dbmstest.QueryMap(t, ctx, e, "SELECT INDEX_NAME, CONCAT(COLUMN_NAME, ' ', INDEX_TYPE, ' ', NON_UNIQUE, ' ', INDEX_COMMENT) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = "+dbms.Quote(table))
}

func testIndexes(t *testing.T, ctx context.Context, e *Engine) {
	if err := e.CreateIndex(ctx, "t", "t_big", "big", dbms.BTree, false); err != nil {
		t.Fatal(err)
	}
	if err := e.CreateIndex(ctx, "t", "t_id", "id", dbms.BTree, true); err != nil {
		t.Fatal(err)
	}
	err := e.CreateIndex(ctx, "t", "t_hash", "id", dbms.Hash, false)
	if !errors.Is(err, dbms.ErrNotSupported) || dbms.Classify(err) != dbms.Unsupported || !strings.Contains(err.Error(), "B-tree") {
		t.Errorf("hash index: %v, want ErrNotSupported with the reason", err)
	}
	got := indexes(t, ctx, e, "t")
	if got["t_big"] != "big BTREE 1" || got["t_id"] != "id BTREE 0" {
		t.Errorf("indexes %q", got)
	}
	if _, ok := got["t_hash"]; ok {
		t.Errorf("hash index was built")
	}
	if err := e.Analyze(ctx, "t"); err != nil {
		t.Error(err)
	}
	if err := e.Analyze(ctx, "no_such_table"); err == nil {
		t.Error("ANALYZE of a missing table reported no error")
	}
	for _, name := range []string{"t_big", "t_id"} {
		if err := e.DropIndex(ctx, "t", name); err != nil {
			t.Fatal(err)
		}
	}
	if got := indexes(t, ctx, e, "t"); len(got) != 0 {
		t.Errorf("indexes left after DropIndex: %q", got)
	}
	if err := e.DropIndex(ctx, "t", "no_such_index"); err == nil {
		t.Error("dropping a missing index reported no error")
	}
}

func firstKeys(t *testing.T, ctx context.Context, e *Engine) string {
	rows, err := e.QueryRows(ctx, "SELECT k FROM t LIMIT 5")
	if err != nil {
		t.Fatal(err)
	}
	var ks []string
	for _, r := range rows {
		ks = append(ks, r[0])
	}
	return strings.Join(ks, ",")
}

func testCluster(t *testing.T, ctx context.Context, e *Engine, url string) {
	if got := firstKeys(t, ctx, e); got == "1,2,3,4,5" {
		t.Fatalf("table is already in k order before Cluster: the test shows nothing")
	}
	if err := e.Cluster(ctx, testTable, "t_k", "k"); err != nil {
		t.Fatal(err)
	}
	// A scan of an InnoDB table follows its clustered index.
	if got := firstKeys(t, ctx, e); got != "1,2,3,4,5" {
		t.Errorf("after Cluster a scan returns k %s, want 1,2,3,4,5", got)
	}
	if got := indexes(t, ctx, e, "t")["PRIMARY"]; got != "k BTREE 0 dbgauge:t_k" {
		t.Errorf("PRIMARY index %q, want k tagged with the given name", got)
	}
	checkLoaded(t, ctx, e, "t")
	// Another session drops it by the name the caller gave.
	other := open(t, ctx, url)
	if err := other.DropIndex(ctx, "t", "t_k"); err != nil {
		t.Fatal(err)
	}
	if got := indexes(t, ctx, e, "t"); len(got) != 0 {
		t.Errorf("indexes left after DropIndex of the clustered key: %q", got)
	}
}

func testCreateTableAs(t *testing.T, ctx context.Context, e *Engine) {
	if err := e.CreateTableAs(ctx, "t_as", "SELECT id, s FROM t WHERE k <= 100", testTable.Columns[:1]); err != nil {
		t.Fatal(err)
	}
	if got := value(t, ctx, e, "SELECT CONCAT(COUNT(*), ' ', ENGINE) FROM t_as, information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 't_as' GROUP BY ENGINE"); got != "100 InnoDB" {
		t.Errorf("t_as: %q, want 100 InnoDB rows", got)
	}
}

func testFlushCache(t *testing.T, ctx context.Context, e *Engine) {
	done, notDone, err := e.FlushCache(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(done, "\n"), "FLUSH TABLES") || !strings.Contains(strings.Join(notDone, "\n"), "buffer pool") {
		t.Errorf("done %q, not done %q", done, notDone)
	}
}

// testMultiHostPlain: a URL naming the plain private MariaDB twice, as a
// cluster's hosts. The server has no Galera (wsrep_on OFF), though built
// with the provider it says wsrep_ready OFF: it takes writes, so the
// session opens on the first host, and a read-only target is refused for
// what the hosts are (they take writes), never as Galera nodes out of
// their cluster.
func testMultiHostPlain(t *testing.T, ctx context.Context, inst *server.Instance) {
	hp := fmt.Sprintf("127.0.0.1:%d", inst.Port)
	if !strings.Contains(inst.URL, "@"+hp+"/") {
		t.Fatalf("instance URL %s does not name %s", inst.URL, hp)
	}
	two := strings.Replace(inst.URL, "@"+hp+"/", "@"+hp+","+hp+"/", 1)
	u, err := dbms.ParseURL(two)
	if err != nil {
		t.Fatal(err)
	}
	e, host, err := dbms.OpenNode(ctx, u)
	if err != nil {
		t.Fatalf("open %s: %v", two, err)
	}
	defer e.Close()
	if host != 0 {
		t.Errorf("session on host %d, want the first", host)
	}
	if ro, err := dbms.ReadOnly(ctx, e); ro || err != nil {
		t.Errorf("ReadOnly: %v, %v; want a server that takes writes", ro, err)
	}
	ro, err := dbms.ParseURL(two + "?target_session_attrs=read-only")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = dbms.OpenNode(ctx, ro)
	if err == nil || !strings.Contains(err.Error(), hp+": takes writes") || strings.Contains(err.Error(), "Galera") {
		t.Errorf("read-only target on a plain MariaDB: %v; want its hosts said to take writes, and no word of Galera", err)
	}
}
