package firebird

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nakagami/firebirdsql"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

func openURL(t *testing.T, raw string) *Engine {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	e, err := dbms.Open(ctx, raw)
	if err != nil {
		t.Fatalf("open %s: %v", raw, err)
	}
	t.Cleanup(func() { e.Close() })
	return e.(*Engine)
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// One private server serves every subtest: they use distinct table names.
func TestFirebird(t *testing.T) {
	inst := servertest.Start(t, "firebird", server.Options{Settings: map[string]string{"DefaultDbCachePages": "1024"}})
	t.Run("Info", func(t *testing.T) { testInfo(t, inst) })
	t.Run("TextQuerier", func(t *testing.T) { dbmstest.CheckTextQuerier(t, ctxT(t), openURL(t, inst.URL), "tq_acct") })
	t.Run("LoadExternal", func(t *testing.T) { testLoad(t, inst, true) })
	t.Run("LoadBlocks", func(t *testing.T) { testLoad(t, inst, false) })
	t.Run("LoadFallback", func(t *testing.T) { testExternalDirFallback(t, inst) })
	t.Run("LoadTypesExternal", func(t *testing.T) {
		e := openURL(t, inst.URL)
		if e.externalDir(ctxT(t)) == "" {
			t.Fatal("the private server's ext directory was not usable")
		}
		dbmstest.CheckLoadTypes(t, ctxT(t), e, "TYPED_EXT")
	})
	t.Run("LoadExternalBlanks", func(t *testing.T) { testExternalBlanks(t, inst) })
	t.Run("LoadTypesBlocks", func(t *testing.T) {
		dbmstest.CheckLoadTypes(t, ctxT(t), blocksOnly{openURL(t, inst.URL)}, "TYPED_BLOCKS")
	})
	t.Run("Schema", func(t *testing.T) { testSchema(t, inst) })
	t.Run("Errors", func(t *testing.T) { testErrors(t, inst) })
	t.Run("Conflict", func(t *testing.T) { testConflict(t, inst) })
	t.Run("QueryProcess", func(t *testing.T) {
		p := dbmstest.CheckProcess(t, ctxT(t), openURL(t, inst.URL), "firebird")
		if p.PID != inst.PID {
			t.Errorf("query process %d, the server's pid %d", p.PID, inst.PID)
		}
	})
	t.Run("Explain", func(t *testing.T) { dbmstest.CheckExplain(t, ctxT(t), openURL(t, inst.URL), "ex_acct", true) })
	t.Run("Reconnect", func(t *testing.T) {
		dbmstest.CheckReconnect(t, ctxT(t), openURL(t, inst.URL), "SELECT CURRENT_CONNECTION FROM RDB$DATABASE")
	})
}

func testInfo(t *testing.T, inst *server.Instance) {
	ctx := ctxT(t)
	e := openURL(t, inst.URL)
	if e.Name() != "firebird" {
		t.Errorf("Name = %q", e.Name())
	}
	info, err := e.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(info.Version, "3.") {
		t.Errorf("Version = %q, want 3.x", info.Version)
	}
	if info.Driver != driverModule || info.DriverVersion == "" {
		t.Errorf("Driver = %q %q", info.Driver, info.DriverVersion)
	}
	ps, _ := strconv.ParseInt(info.Settings["page_size"], 10, 64)
	if ps < 4096 || info.Settings["page_buffers"] != "1024" || info.BufferPoolBytes != ps*1024 {
		t.Errorf("page_size %q page_buffers %q BufferPoolBytes %d: want the DefaultDbCachePages of 1024 pages", info.Settings["page_size"], info.Settings["page_buffers"], info.BufferPoolBytes)
	}
	if info.Settings["server_mode"] != "Super" {
		t.Errorf("server_mode = %q, want Super", info.Settings["server_mode"])
	}
	for _, k := range []string{"forced_writes", "ods_version", "database"} {
		if info.Settings[k] == "" {
			t.Errorf("setting %s missing: %v", k, info.Settings)
		}
	}
	if want := filepath.Join(inst.Dir, "dbgauge.fdb"); info.Settings["database"] != want {
		t.Errorf("database = %q, want %q (the URL's //absolute path)", info.Settings["database"], want)
	}
	id, err := e.AttachmentID(ctx)
	if err != nil || id <= 0 {
		t.Errorf("AttachmentID = %d, %v", id, err)
	}
	other := openURL(t, inst.URL)
	id2, _ := other.AttachmentID(ctx)
	if id2 == id {
		t.Errorf("two sessions share attachment id %d", id)
	}
	done, notDone, err := e.FlushCache(ctx)
	if err != nil || len(done) != 0 || len(notDone) == 0 {
		t.Errorf("FlushCache = %v, %v, %v", done, notDone, err)
	}
}

// rowGen yields n rows (a = i, b = 3i+7, s = "r<i>") in key order.
type rowGen struct{ i, n int64 }

func (g *rowGen) Next(row []any) bool {
	if g.i >= g.n {
		return false
	}
	row[0], row[1], row[2] = g.i, 3*g.i+7, fmt.Sprintf("r%d", g.i)
	g.i++
	return true
}

var testCols = []dbms.Column{
	{Name: "a", Type: dbms.Int},
	{Name: "b", Type: dbms.BigInt},
	{Name: "s", Type: dbms.Char, Len: 20},
}

// checkLoaded asserts count and checksums of rowGen's n rows in table.
func checkLoaded(t *testing.T, e *Engine, table string, n int64) {
	t.Helper()
	ctx := ctxT(t)
	rows, err := e.QueryRows(ctx, "SELECT COUNT(*), SUM(a), SUM(b), SUM(CHAR_LENGTH(TRIM(s))), MIN(s), MAX(a) FROM "+table)
	if err != nil {
		t.Fatal(err)
	}
	var digits int64
	for i := int64(0); i < n; i++ {
		digits += int64(len(strconv.FormatInt(i, 10))) + 1
	}
	want := []string{
		strconv.FormatInt(n, 10),
		strconv.FormatInt(n*(n-1)/2, 10),
		strconv.FormatInt(3*n*(n-1)/2+7*n, 10),
		strconv.FormatInt(digits, 10),
		"r0",
		strconv.FormatInt(n-1, 10),
	}
	if strings.Join(rows[0], " ") != strings.Join(want, " ") {
		t.Errorf("%s: count, sum(a), sum(b), sum(len(s)), min(s), max(a) = %v, want %v", table, rows[0], want)
	}
	got, err := e.QueryValue(ctx, "SELECT s FROM "+table+" WHERE a = 4321")
	if err != nil || got != "r4321" {
		t.Errorf("row 4321: s = %q, %v", got, err)
	}
}

func testLoad(t *testing.T, inst *server.Instance, external bool) {
	ctx := ctxT(t)
	e := openURL(t, inst.URL)
	table := "LOAD_BLOCKS"
	if external {
		table = "LOAD_EXT"
	}
	tab := dbms.Table{Name: table, Columns: testCols}
	if err := e.DropTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	if err := e.CreateTable(ctx, tab); err != nil {
		t.Fatal(err)
	}
	const n = 10000 // not a multiple of the block size: the last block is short
	var got int64
	var err error
	if external {
		if dir := e.externalDir(ctx); dir != filepath.Join(inst.Dir, "ext") {
			t.Fatalf("externalDir = %q: the private server's ext directory was not usable", dir)
		}
		got, err = e.Load(ctx, tab, &rowGen{n: n})
	} else {
		if k := blockRows(tab); n%k == 0 {
			t.Fatalf("block of %d rows divides %d: the short last block goes untested", k, n)
		}
		got, err = e.loadBlocks(ctx, tab, &rowGen{n: n})
	}
	if err != nil || got != n {
		t.Fatalf("load = %d, %v; want %d", got, err, n)
	}
	checkLoaded(t, e, table, n)
	if external {
		left, _ := filepath.Glob(filepath.Join(inst.Dir, "ext", "*"))
		if len(left) != 0 {
			t.Errorf("external load left files: %v", left)
		}
		rows, _ := e.QueryRows(ctx, "SELECT RDB$RELATION_NAME FROM RDB$RELATIONS WHERE RDB$EXTERNAL_FILE IS NOT NULL")
		if len(rows) != 0 {
			t.Errorf("external load left tables: %v", rows)
		}
	}

	// A value too long for its CHAR column fails the load on either path.
	bad := dbms.Table{Name: table + "_BAD", Columns: []dbms.Column{{Name: "s", Type: dbms.Char, Len: 2}}}
	e.DropTable(ctx, bad.Name)
	if err := e.CreateTable(ctx, bad); err != nil {
		t.Fatal(err)
	}
	src := &sliceSource{vals: []string{"ok", "too long"}}
	if external {
		_, err = e.Load(ctx, bad, src)
	} else {
		_, err = e.loadBlocks(ctx, bad, src)
	}
	if err == nil {
		t.Errorf("loading a too-long value succeeded")
	}
}

type sliceSource struct{ vals []string }

func (s *sliceSource) Next(row []any) bool {
	if len(s.vals) == 0 {
		return false
	}
	row[0], s.vals = s.vals[0], s.vals[1:]
	return true
}

// A server that cannot read our files (here: a URL naming a directory that
// does not exist) makes Load take the block path.
func testExternalDirFallback(t *testing.T, inst *server.Instance) {
	ctx := ctxT(t)
	e := openURL(t, inst.URL+"?ext_dir="+url.QueryEscape(filepath.Join(inst.Dir, "no-such-dir")))
	if dir := e.externalDir(ctx); dir != "" {
		t.Fatalf("externalDir = %q, want none", dir)
	}
	tab := dbms.Table{Name: "LOAD_FALLBACK", Columns: testCols}
	e.DropTable(ctx, tab.Name)
	if err := e.CreateTable(ctx, tab); err != nil {
		t.Fatal(err)
	}
	if n, err := e.Load(ctx, tab, &rowGen{n: 5000}); err != nil || n != 5000 {
		t.Fatalf("Load = %d, %v", n, err)
	}
	checkLoaded(t, e, tab.Name, 5000)
}

func testSchema(t *testing.T, inst *server.Instance) {
	ctx := ctxT(t)
	e := openURL(t, inst.URL)
	tab := dbms.Table{Name: "SCH", Columns: testCols}
	e.DropTable(ctx, "SCH")
	e.DropTable(ctx, "SCH_COPY")
	if err := e.CreateTable(ctx, tab); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Load(ctx, tab, &rowGen{n: 2000}); err != nil {
		t.Fatal(err)
	}

	if err := e.CreateIndex(ctx, "SCH", "SCH_B", "b", dbms.BTree, true); err != nil {
		t.Fatal(err)
	}
	if !indexExists(t, e, "SCH_B") {
		t.Errorf("index SCH_B missing after CreateIndex")
	}
	err := e.CreateIndex(ctx, "SCH", "SCH_H", "b", dbms.Hash, false)
	if !errors.Is(err, dbms.ErrNotSupported) || dbms.Classify(err) != dbms.Unsupported || indexExists(t, e, "SCH_H") {
		t.Errorf("hash index: err = %v, want ErrNotSupported and no index", err)
	}
	if _, err := e.Exec(ctx, "INSERT INTO SCH VALUES (1, 10, 'dup')"); err == nil {
		t.Errorf("unique index accepted a duplicate b")
	}

	if err := e.Cluster(ctx, tab, "SCH_A", "a"); err != nil {
		t.Fatal(err)
	}
	if !indexExists(t, e, "SCH_A") {
		t.Errorf("Cluster left no index SCH_A")
	}
	// Rows come back in key order from a plain scan: insertion order is the
	// stored order, which is what Cluster relies on.
	rows, err := e.QueryRows(ctx, "SELECT a FROM SCH")
	if err != nil || len(rows) != 2000 {
		t.Fatalf("scan: %d rows, %v", len(rows), err)
	}
	for i, r := range rows {
		if r[0] != strconv.Itoa(i) {
			t.Fatalf("scan row %d: a = %s, want %d", i, r[0], i)
		}
	}
	if err := e.Analyze(ctx, "SCH"); err != nil {
		t.Fatal(err)
	}
	sel, err := e.QueryValue(ctx, "SELECT RDB$STATISTICS FROM RDB$INDICES WHERE RDB$INDEX_NAME = 'SCH_A'")
	if f, _ := strconv.ParseFloat(sel, 64); err != nil || f <= 0 || f > 0.001 {
		t.Errorf("selectivity of SCH_A after Analyze = %q, %v; want 1/2000", sel, err)
	}

	if err := e.CreateTableAs(ctx, "SCH_COPY", "SELECT a, b, s FROM SCH WHERE a < 100", testCols); err != nil {
		t.Fatal(err)
	}
	if n, err := e.QueryCount(ctx, "SELECT * FROM SCH_COPY"); err != nil || n != 100 {
		t.Errorf("SCH_COPY holds %d rows, %v; want 100", n, err)
	}

	if err := e.DropIndex(ctx, "SCH", "SCH_A"); err != nil {
		t.Fatal(err)
	}
	if indexExists(t, e, "SCH_A") {
		t.Errorf("SCH_A still there after DropIndex")
	}
	if err := e.DropIndex(ctx, "SCH", "SCH_A"); err != nil {
		t.Errorf("dropping a missing index: %v", err)
	}
	for _, name := range []string{"SCH", "SCH_COPY"} {
		if err := e.DropTable(ctx, name); err != nil {
			t.Fatal(err)
		}
		if err := e.DropTable(ctx, name); err != nil {
			t.Errorf("dropping missing table %s: %v", name, err)
		}
	}
	if _, err := e.QueryCount(ctx, "SELECT * FROM SCH"); dbms.Classify(err) != dbms.Syntax {
		t.Errorf("SCH still readable after DropTable: %v", err)
	}
}

func indexExists(t *testing.T, e *Engine, name string) bool {
	t.Helper()
	ok, err := e.exists(ctxT(t), "SELECT COUNT(*) FROM RDB$INDICES WHERE RDB$INDEX_NAME = ?", name)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func testErrors(t *testing.T, inst *server.Instance) {
	ctx := ctxT(t)
	closed, err := server.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(inst.Dir, "dbgauge.fdb")
	cases := []struct {
		name, url, says string
	}{
		{"refused", fmt.Sprintf("firebird://sysdba:masterkey@127.0.0.1:%d/%s", closed, db), "cannot connect"},
		{"password", fmt.Sprintf("firebird://sysdba:wrong@127.0.0.1:%d/%s", inst.Port, db), "wrong user name or password"},
		{"missing database", fmt.Sprintf("firebird://sysdba:%s@127.0.0.1:%d/%s", inst.Password, inst.Port, filepath.Join(inst.Dir, "nope.fdb")), "no database at " + filepath.Join(inst.Dir, "nope.fdb")},
		{"no path", fmt.Sprintf("firebird://sysdba:%s@127.0.0.1:%d/", inst.Password, inst.Port), "names no database"},
	}
	for _, c := range cases {
		e, err := dbms.Open(ctx, c.url)
		if err == nil {
			e.Close()
			t.Errorf("%s: open succeeded", c.name)
			continue
		}
		if dbms.Classify(err) != dbms.BadInput || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v (class %v), want one BadInput line saying %q", c.name, err, dbms.Classify(err), c.says)
		}
	}

	e := openURL(t, inst.URL)
	for _, q := range []string{"SELEC 1 FROM RDB$DATABASE", "SELECT * FROM NO_SUCH_TABLE", "SELECT no_such_column FROM RDB$DATABASE"} {
		if _, err := e.Exec(ctx, q); dbms.Classify(err) != dbms.Syntax {
			t.Errorf("%s: %v (class %v), want syntax", q, err, dbms.Classify(err))
		}
	}
	// The session survives a rejected statement.
	if v, err := e.QueryValue(ctx, "SELECT 1 FROM RDB$DATABASE"); err != nil || v != "1" {
		t.Errorf("after errors: %q, %v", v, err)
	}
}

// Two sessions update one row; the second, in a NO WAIT transaction, gets a
// conflict at once, which must be classified as a serialization failure.
func testConflict(t *testing.T, inst *server.Instance) {
	ctx := ctxT(t)
	a := openURL(t, inst.URL)
	b := openURL(t, inst.URL)
	a.DropTable(ctx, "CONFL")
	if _, err := a.Exec(ctx, "CREATE TABLE CONFL (id INTEGER, v INTEGER)"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Exec(ctx, "INSERT INTO CONFL VALUES (1, 0)"); err != nil {
		t.Fatal(err)
	}
	txA, err := a.Conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer txA.Rollback()
	if _, err := txA.ExecContext(ctx, "UPDATE CONFL SET v = 1 WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	txB, err := b.Conn.BeginTx(ctx, &sql.TxOptions{Isolation: firebirdsql.LevelReadCommittedNoWait})
	if err != nil {
		t.Fatal(err)
	}
	defer txB.Rollback()
	_, err = txB.ExecContext(ctx, "UPDATE CONFL SET v = 2 WHERE id = 1")
	if c := dbms.Classify(classify(err)); c != dbms.Serialization {
		t.Errorf("concurrent update: %v (class %v), want serialization", err, c)
	}
}

// blocksOnly is an Engine whose Load takes the EXECUTE BLOCK path even where
// external files would do.
type blocksOnly struct{ *Engine }

func (b blocksOnly) Load(ctx context.Context, t dbms.Table, rows dbms.RowSource) (int64, error) {
	return b.loadBlocks(ctx, t, rows)
}

// testExternalBlanks: the fixed-width fields of an external file pad with
// blanks, yet a Varchar keeps its own trailing blanks, an empty one stays
// empty and a NULL one NULL (ext_record.go).
func testExternalBlanks(t *testing.T, inst *server.Instance) {
	ctx := ctxT(t)
	e := openURL(t, inst.URL)
	if e.externalDir(ctx) == "" {
		t.Fatal("the private server's ext directory was not usable")
	}
	tab := dbms.Table{Name: "EXT_BLANKS", Columns: []dbms.Column{{Name: "id", Type: dbms.Int}, {Name: "v", Type: dbms.Varchar, Len: 12}}}
	if err := e.DropTable(ctx, tab.Name); err != nil {
		t.Fatal(err)
	}
	if err := e.CreateTable(ctx, tab); err != nil {
		t.Fatal(err)
	}
	src := dbmstest.Rows([]any{int64(1), "pad  "}, []any{int64(2), ""}, []any{int64(3), nil}, []any{int64(4), "  lead"}, []any{int64(5), "twelve chars"})
	if n, err := e.Load(ctx, tab, src); err != nil || n != 5 {
		t.Fatalf("Load = %d, %v", n, err)
	}
	rows, err := e.QueryRows(ctx, "SELECT id, CHAR_LENGTH(v), '[' || v || ']' FROM EXT_BLANKS ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"1", "5", "[pad  ]"}, {"2", "0", "[]"}, {"3", "", ""}, {"4", "6", "[  lead]"}, {"5", "12", "[twelve chars]"}}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("read back %q, want %q", rows, want)
	}
}
