package sqlite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
)

type seqRows struct{ i, n int64 }

func (s *seqRows) Next(row []any) bool {
	if s.i >= s.n {
		return false
	}
	row[0], row[1], row[2] = (s.i*7919)%s.n, s.i, "v"
	s.i++
	return true
}

var table = dbms.Table{Name: "t", Columns: []dbms.Column{{Name: "k", Type: dbms.Int}, {Name: "pos", Type: dbms.Int}, {Name: "s", Type: dbms.Char, Len: 8}}}

func openTemp(t *testing.T) dbms.Engine {
	t.Helper()
	e, err := dbms.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func TestLoadIndexCluster(t *testing.T) {
	ctx := context.Background()
	e := openTemp(t)
	info, err := e.Info(ctx)
	if err != nil || info.Version == "" || info.BufferPoolBytes <= 0 || info.Settings["page_size"] == "" {
		t.Fatalf("info %+v %v", info, err)
	}
	if err := e.CreateTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	// 7919 is prime and coprime with 10000, so k is a permutation of 0..9999.
	n, err := e.Load(ctx, table, &seqRows{n: 10000})
	if err != nil || n != 10000 {
		t.Fatalf("load %d %v", n, err)
	}
	if v, _ := dbms.FirstValue(ctx, e, "SELECT COUNT(*) || ':' || SUM(k) || ':' || COUNT(DISTINCT k) FROM t"); v != "10000:49995000:10000" {
		t.Errorf("loaded data %s", v)
	}
	if err := e.CreateIndex(ctx, "t", "t_k", "k", dbms.Hash, false); !errors.Is(err, dbms.ErrNotSupported) {
		t.Errorf("hash index: %v", err)
	}
	if err := e.CreateIndex(ctx, "t", "t_k", "k", dbms.BTree, true); err != nil {
		t.Fatal(err)
	}
	// Cluster on k: the table becomes a WITHOUT ROWID B-tree on k, so a
	// plain scan returns rows in k order.
	if err := e.Cluster(ctx, table, "t_pk", "k"); err != nil {
		t.Fatal(err)
	}
	rows, err := e.QueryRows(ctx, "SELECT k FROM t LIMIT 5")
	if err != nil || len(rows) != 5 || rows[0][0] != "0" || rows[4][0] != "4" {
		t.Errorf("scan after cluster: %v %v", rows, err)
	}
	if v, _ := dbms.FirstValue(ctx, e, "SELECT sql FROM sqlite_master WHERE name = 't'"); !contains(v, "WITHOUT ROWID") {
		t.Errorf("clustered table is %q", v)
	}
	if err := e.CreateTableAs(ctx, "r", "SELECT k FROM t WHERE k < 100", nil); err != nil {
		t.Fatal(err)
	}
	if v, _ := dbms.FirstValue(ctx, e, "SELECT COUNT(*) FROM r"); v != "100" {
		t.Errorf("CTAS rows %s", v)
	}
	c, err := e.QueryCount(ctx, "SELECT * FROM t WHERE k BETWEEN 10 AND 19")
	if err != nil || c != 10 {
		t.Errorf("QueryCount %d %v", c, err)
	}
	if _, _, err := e.(dbms.CacheFlusher).FlushCache(ctx); err != nil {
		t.Fatal(err)
	}
	if v, _ := dbms.FirstValue(ctx, e, "SELECT COUNT(*) FROM t"); v != "10000" {
		t.Errorf("after flush: %s", v)
	}
	if err := e.DropTable(ctx, "t"); err != nil {
		t.Fatal(err)
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := dbms.Open(ctx, "sqlite:/no/such/dir/x.db"); dbms.Classify(err) != dbms.BadInput {
		t.Errorf("missing directory: %v (%v)", err, dbms.Classify(err))
	}
	e := openTemp(t)
	if _, err := e.Exec(ctx, "SELEC 1"); dbms.Classify(err) != dbms.Syntax {
		t.Errorf("syntax error classified %v: %v", dbms.Classify(err), err)
	}
}

// A URL parameter go-sqlite3 does not know is refused before the file is
// created (go-sqlite3 ignores it: a misspelt _journal_mode ran in the
// default mode); the message names --db, the parameter and the ones taken.
func TestUnknownURLParameter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	_, err := dbms.Open(context.Background(), "sqlite:"+path+"?_jurnal_mode=WAL&_busy_timeout=100")
	if dbms.Classify(err) != dbms.BadInput || err == nil || !contains(err.Error(), "--db") ||
		!contains(err.Error(), "_jurnal_mode") || !contains(err.Error(), "_journal_mode") || contains(err.Error(), "\n") {
		t.Errorf("unknown parameter: %v (%v)", err, dbms.Classify(err))
	}
	if _, serr := os.Stat(path); serr == nil {
		t.Errorf("%s created for a refused URL", path)
	}
	e, err := dbms.Open(context.Background(), "sqlite:"+path+"?_journal_mode=WAL&_busy_timeout=100")
	if err != nil {
		t.Fatalf("known parameters: %v", err)
	}
	e.Close()
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// cancelAt is a row source that cancels the load's context when row at is
// asked for.
type cancelAt struct {
	seqRows
	at     int64
	cancel context.CancelFunc
}

func (c *cancelAt) Next(row []any) bool {
	if c.i == c.at {
		c.cancel()
	}
	return c.seqRows.Next(row)
}

// TestLoadCancelled: a load whose context ends stops at the next row with
// the context's error and has rolled back when it returns (the inserts run
// under a context without cancellation, so Load checks it itself).
func TestLoadCancelled(t *testing.T) {
	e := openTemp(t)
	if err := e.CreateTable(context.Background(), table); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n, err := e.Load(ctx, table, &cancelAt{seqRows: seqRows{n: 10000}, at: 500, cancel: cancel})
	if !errors.Is(err, context.Canceled) || n != 500 {
		t.Errorf("load cancelled at row 500: %d rows, %v", n, err)
	}
	if v, err := dbms.FirstValue(context.Background(), e, "SELECT COUNT(*) FROM t"); v != "0" {
		t.Errorf("rows after the cancelled load: %s, %v; want 0 (rolled back)", v, err)
	}
}

// TestLoadTypes holds SQLite's Load to the RowSource contract: every column
// type, NULLs, decimals as SQLite's NUMERIC affinity keeps them.
func TestLoadTypes(t *testing.T) {
	dbmstest.CheckLoadTypes(t, context.Background(), openTemp(t), "typed")
}
