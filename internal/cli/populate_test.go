package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// TestPopulateAndCheck: dbgauge populate builds one warehouse of the
// orders workload on SQLite and finds every condition holding; dbgauge
// check finds the same; after a hand-made break (one district's next
// order number off by one, one order line deleted) check names
// conditions 2 and 4 and exits 1.
func TestPopulateAndCheck(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "orders.db")
	code, out, errOut := run("populate", "--db", db, "--workload", "orders", "--scale", "1")
	if code != 0 || !strings.Contains(out, "consistent after the load: every condition holds") || !strings.Contains(out, "rows loaded") {
		t.Fatalf("populate: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, errOut := run("check", "--db", db, "--workload", "orders", "--scale", "1"); code != 0 || !strings.Contains(out, "consistent: every condition holds") {
		t.Fatalf("check of a fresh load: exit %d\n%s\n%s", code, out, errOut)
	}
	ctx := context.Background()
	e, err := dbms.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []string{
		"UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = 1 AND d_id = 3",
		"DELETE FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 5 AND ol_o_id = 17 AND ol_number = 1",
	} {
		if n, err := e.Exec(ctx, st); err != nil || n != 1 {
			t.Fatalf("%s: %d rows, %v", st, n, err)
		}
	}
	e.Close()
	code, out, errOut = run("check", "--db", db, "--workload", "orders", "--scale", "1")
	if code != 1 {
		t.Fatalf("check of a broken copy: exit %d, want 1\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"3.3.2.2", "warehouse 1, district 3", "3.3.2.4", "warehouse 1, district 5"} {
		if !strings.Contains(out, want) {
			t.Errorf("check output does not name %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "3.3.2.1 ") || strings.Contains(out, "3.3.2.8") {
		t.Errorf("check names a condition the breaks leave holding:\n%s", out)
	}
}
