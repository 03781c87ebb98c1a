package postgres

import (
	"context"
	"crypto/md5"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
)

var loadTable = dbms.Table{Name: "Loaded", Columns: []dbms.Column{
	{Name: "unique1", Type: dbms.Int},
	{Name: "unique2", Type: dbms.BigInt},
	{Name: "stringu1", Type: dbms.Char, Len: 52},
}}

// rowGen yields n rows: unique1 a permutation of 0..n-1 (7 is prime to n),
// unique2 = i + 2^40 (needs eight bytes), stringu1 a text of the row number.
type rowGen struct {
	i, n  int
	after func(i int) // called after row i was produced, if set
}

func (g *rowGen) Next(row []any) bool {
	if g.i == g.n {
		return false
	}
	row[0] = int64(g.i * 7 % g.n)
	row[1] = int64(g.i) + 1<<40
	row[2] = fmt.Sprintf("row-%06d", g.i)
	if g.after != nil {
		g.after(g.i)
	}
	g.i++
	return true
}

func (g *rowGen) digest() string {
	var b strings.Builder
	for i := 0; i < g.n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "row-%06d", i)
	}
	return fmt.Sprintf("%x", md5.Sum([]byte(b.String())))
}

func testLoad(t *testing.T, inst *server.Instance) {
	e := open(t, inst.URL)
	ctx := context.Background()
	const n = 10000
	if err := e.CreateTable(ctx, loadTable); err != nil {
		t.Fatal(err)
	}
	defer e.DropTable(ctx, loadTable.Name)
	gen := &rowGen{n: n}
	got, err := e.Load(ctx, loadTable, gen)
	if err != nil || got != n {
		t.Fatalf("Load = %d, %v; want %d rows", got, err, n)
	}
	if c, _ := e.QueryCount(ctx, "SELECT * FROM loaded"); c != n {
		t.Errorf("table holds %d rows, want %d", c, n)
	}
	sums := value(t, e, "SELECT sum(unique1) || ' ' || sum(unique2) || ' ' || count(DISTINCT unique1) FROM loaded")
	want := fmt.Sprintf("%d %d %d", n*(n-1)/2, n*(n-1)/2+n<<40, n)
	if sums != want {
		t.Errorf("sum(unique1) sum(unique2) count(distinct) = %s, want %s", sums, want)
	}
	if d := value(t, e, "SELECT md5(string_agg(stringu1::text, ',' ORDER BY unique2)) FROM loaded"); d != gen.digest() {
		t.Errorf("stringu1 digest %s, want %s", d, gen.digest())
	}
	if w := value(t, e, "SELECT octet_length(stringu1) FROM loaded LIMIT 1"); w != "52" {
		t.Errorf("stringu1 stored as %s bytes, want char(52)", w)
	}

	// A value out of the column's range fails the load with the row's cause.
	if _, err := e.Load(ctx, loadTable, &overflowSource{}); err == nil {
		t.Errorf("loading 2^40 into an integer column succeeded")
	}
}

// overflowSource yields one row whose unique1 does not fit in four bytes.
type overflowSource struct{ done bool }

func (s *overflowSource) Next(row []any) bool {
	if s.done {
		return false
	}
	row[0], row[1], row[2] = int64(1)<<40, int64(0), "x"
	s.done = true
	return true
}

// testLoadStreams proves Load sends rows while the source is still being
// read: before the source yields its last rows, the server's COPY progress
// (seen from a second session) has already counted stored rows. A Load that
// gathered all rows first would never show progress and fails after the wait.
func testLoadStreams(t *testing.T, inst *server.Instance) {
	e := open(t, inst.URL)
	watcher := open(t, inst.URL)
	ctx := context.Background()
	const n, checkAt = 20000, 15000
	t.Cleanup(func() { e.DropTable(ctx, "streamed") })
	tbl := loadTable
	tbl.Name = "streamed"
	if err := e.CreateTable(ctx, tbl); err != nil {
		t.Fatal(err)
	}
	pid, err := e.BackendPID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// after runs on pgx's encoding goroutine: no t.Fatal there.
	var seen string
	var watchErr error
	gen := &rowGen{n: n, after: func(i int) {
		if i != checkAt {
			return
		}
		q := fmt.Sprintf("SELECT coalesce(max(tuples_processed), 0) FROM pg_stat_progress_copy WHERE pid = %d", pid)
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			var rows [][]string
			if rows, watchErr = watcher.QueryRows(ctx, q); watchErr != nil {
				return
			}
			if seen = rows[0][0]; seen != "0" {
				return
			}
		}
	}}
	if got, err := e.Load(ctx, tbl, gen); err != nil || got != n {
		t.Fatalf("Load = %d, %v", got, err)
	}
	if watchErr != nil {
		t.Fatalf("watch COPY progress: %v", watchErr)
	}
	if seen == "0" || seen == "" {
		t.Errorf("the server had stored no rows when the source reached row %d: Load does not stream", checkAt)
	}
}
