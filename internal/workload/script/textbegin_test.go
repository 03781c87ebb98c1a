package script

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// checkTextBegin runs scripts whose transaction begins with SQL the
// runtime sends as written (begin, a form of BEGIN it does not map) and
// ends with its own COMMIT or ROLLBACK, or does not end: the COMMIT must
// commit, the ROLLBACK roll back, and the open end fail as such and leave
// no transaction open.
func checkTextBegin(t *testing.T, ctx context.Context, e dbms.Engine, begin string) {
	t.Helper()
	if err := e.DropTable(ctx, "tb"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Exec(ctx, "CREATE TABLE tb (v INTEGER)"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		end   string
		count string
		fails bool
	}{
		{"COMMIT;\n", "1", false},
		{"ROLLBACK;\n", "1", false},
		{"", "1", true},
		{"END;\n", "2", false},
	} {
		src := begin + ";\nINSERT INTO tb VALUES (1);\n" + tc.end
		p := mustProgram(t, Options{Protocol: Extended}, scriptOf(t, "tb.sql", src))
		c := p.Clients(1)[0]
		if err := c.Setup(ctx, e); err != nil {
			t.Fatal(err)
		}
		r := c.Run(ctx, nil)
		if (r.Err != nil) != tc.fails || tc.fails && r.Class != dbms.Invalid {
			t.Fatalf("%q: error %v (class %s)", src, r.Err, r.Class)
		}
		if got, err := dbms.FirstValue(ctx, e, "SELECT COUNT(*) FROM tb"); err != nil || got != tc.count {
			t.Errorf("%q: %s rows (%v), want %s", src, got, err, tc.count)
		}
		// No transaction is open: the session can begin one.
		tx := e.(dbms.Transactor)
		if err := tx.Begin(ctx, dbms.RepeatableRead); err != nil {
			t.Fatalf("%q: a transaction left open? Begin: %v", src, err)
		}
		if err := tx.Rollback(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTextBeginSQLite(t *testing.T) {
	ctx := context.Background()
	checkTextBegin(t, ctx, openURL(t, ctx, "sqlite:"+filepath.Join(t.TempDir(), "tb.db")), "BEGIN IMMEDIATE")
}
