package dbmstest

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// CheckProcess checks that e names a live query process whose command name
// is one of comms ("" for an embedded engine: dbgauge's own process), and
// that the thread, when named, belongs to it.
func CheckProcess(t *testing.T, ctx context.Context, e dbms.Engine, comms ...string) dbms.Process {
	t.Helper()
	pr, ok := e.(dbms.ProcessReporter)
	if !ok {
		t.Fatalf("%s does not report its query process", e.Name())
	}
	p, err := pr.QueryProcess(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(comms) == 0 {
		if !p.Embedded || p.PID != os.Getpid() {
			t.Fatalf("embedded engine's query process %+v, want dbgauge's own (%d)", p, os.Getpid())
		}
		return p
	}
	if p.PID <= 0 || p.Embedded {
		t.Fatalf("query process %+v", p)
	}
	comm := readComm(t, "/proc/"+strconv.Itoa(p.PID))
	found := false
	for _, c := range comms {
		found = found || comm == c
	}
	if !found {
		t.Errorf("query process %d is %q, want one of %v (%s)", p.PID, comm, comms, p.How)
	}
	if p.TID != 0 {
		readComm(t, "/proc/"+strconv.Itoa(p.PID)+"/task/"+strconv.Itoa(p.TID))
	}
	return p
}

func readComm(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(dir + "/comm")
	if err != nil {
		t.Fatalf("query process: %v", err)
	}
	return strings.TrimSpace(string(b))
}

// CheckExplain checks that e explains a query the same way twice,
// differently from another query, and (with index) differently once an
// index serves it. DuckDB keeps scanning 300 rows with an index there.
func CheckExplain(t *testing.T, ctx context.Context, e dbms.Engine, table string, index bool) {
	t.Helper()
	ex, ok := e.(dbms.Explainer)
	if !ok {
		t.Fatalf("%s does not explain", e.Name())
	}
	if err := e.DropTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	if err := e.CreateTable(ctx, AccountTable(table)); err != nil {
		t.Fatal(err)
	}
	// Rows, so that no engine answers from the empty table's statistics.
	for i := 1; i <= 300; i++ {
		if _, err := e.Exec(ctx, "INSERT INTO "+table+" (id, bal) VALUES ("+strconv.Itoa(i)+", 0)"); err != nil {
			t.Fatal(err)
		}
	}
	for n := 300; n < 10000; n *= 2 { // doubling: 19,200 rows
		if _, err := e.Exec(ctx, "INSERT INTO "+table+" (id, bal) SELECT id + "+strconv.Itoa(n)+", bal FROM "+table); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Analyze(ctx, table); err != nil {
		t.Fatal(err)
	}
	q := "SELECT bal FROM " + table + " WHERE id = 5"
	a, err := ex.Explain(ctx, q)
	if err != nil || strings.TrimSpace(a) == "" {
		t.Fatalf("explain: %q, %v", a, err)
	}
	b, err := ex.Explain(ctx, q)
	if err != nil || a != b {
		t.Fatalf("explain twice: %q then %q (%v)", a, b, err)
	}
	other, err := ex.Explain(ctx, "SELECT COUNT(*) FROM "+table+" x, "+table+" y WHERE x.id = y.bal")
	if err != nil || other == a {
		t.Errorf("explain of a join: %q, %v; the same as a selection's", other, err)
	}
	if !index {
		e.DropTable(ctx, table)
		return
	}
	if err := e.CreateIndex(ctx, table, table+"_id", "id", dbms.BTree, true); err != nil {
		t.Fatalf("create an index after explains: %v", err)
	}
	if err := e.Analyze(ctx, table); err != nil {
		t.Fatal(err)
	}
	c, err := ex.Explain(ctx, q)
	if err != nil || c == a {
		t.Errorf("explain with an index: %q (was %q), %v", c, a, err)
	}
	e.DropTable(ctx, table)
}
