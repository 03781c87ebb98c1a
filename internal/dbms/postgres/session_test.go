package postgres

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestSessions runs the Transactor, Keys and SizeReporter checks on a
// private server of its own.
func TestSessions(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t.Run("Placeholders", testPlaceholders)
	for _, iso := range []dbms.Isolation{dbms.RepeatableRead, dbms.ReadCommitted, dbms.Serializable} {
		t.Run("Transactions/"+iso.String(), func(t *testing.T) {
			dbmstest.CheckTransactions(t, ctx, open(t, inst.URL), iso, "tx_acct")
		})
	}
	t.Run("Conflict", func(t *testing.T) { testConflict(t, ctx, inst) })
	t.Run("Deadlock", func(t *testing.T) { testDeadlock(t, ctx, inst) })
	t.Run("Keys", func(t *testing.T) {
		dbmstest.CheckKeys(t, ctx, open(t, inst.URL), "k_parent", "k_child", true)
	})
	t.Run("TableBytes", func(t *testing.T) {
		e := open(t, inst.URL)
		dbmstest.CheckTableBytes(t, ctx, e, "sized", 1000, nil)
		// Indexes count too.
		before, _ := e.TableBytes(ctx, "sized")
		exec(t, e, "CREATE INDEX sized_filler ON sized (filler)")
		if after, err := e.TableBytes(ctx, "sized"); err != nil || after <= before {
			t.Errorf("TableBytes with an index = %d, %v; want more than %d", after, err, before)
		}
		both, err := e.TableBytes(ctx, "sized", "tx_acct")
		if err != nil || both <= before {
			t.Errorf("TableBytes of two tables = %d, %v", both, err)
		}
	})
	t.Run("FastPathAllocations", func(t *testing.T) {
		// A load calls prepared point queries and updates hundreds of
		// thousands of times: the fast path allocates nothing of its own.
		// Two allocations per call remain, neither removable here: the
		// caller's argument slice (Transactor takes ...any, which the
		// general path hands to pgx, so it escapes) and pgconn's command
		// tag string. Measured before ExecStatement: 3 (pgconn also
		// converted a row description per call).
		e := open(t, inst.URL)
		dbmstest.CreateAccounts(t, ctx, e, "alloc_acct", 2)
		q, u := "SELECT bal FROM alloc_acct WHERE id = ?", "UPDATE alloc_acct SET bal = bal + ? WHERE id = ?"
		for _, st := range []string{q, u} {
			if err := e.Prepare(ctx, st); err != nil {
				t.Fatal(err)
			}
		}
		qctx := context.WithoutCancel(ctx) // as the load driver calls (driver/iopath.go)
		var id int64 = 1
		if n := testing.AllocsPerRun(1000, func() {
			if _, err := e.QueryInt(qctx, q, id); err != nil {
				t.Fatal(err)
			}
		}); n > 2 {
			t.Errorf("QueryInt: %v allocations per call, want at most 2", n)
		}
		if n := testing.AllocsPerRun(1000, func() {
			if _, err := e.ExecArgs(qctx, u, id, id); err != nil {
				t.Fatal(err)
			}
		}); n > 2 {
			t.Errorf("ExecArgs: %v allocations per call, want at most 2", n)
		}
	})
	t.Run("PreparedUsesProtocol", func(t *testing.T) {
		// A prepared statement is the server's: pg_prepared_statements lists it.
		e := open(t, inst.URL)
		dbmstest.CreateAccounts(t, ctx, e, "prep_acct", 2)
		if err := e.Prepare(ctx, "SELECT bal FROM prep_acct WHERE id = ?"); err != nil {
			t.Fatal(err)
		}
		if got := value(t, e, "SELECT count(*) FROM pg_prepared_statements WHERE statement = 'SELECT bal FROM prep_acct WHERE id = $1'"); got != "1" {
			t.Errorf("prepared statements with the rewritten text: %s, want 1", got)
		}
	})
}

func testPlaceholders(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"UPDATE a SET b = b + ? WHERE c = ?", "UPDATE a SET b = b + $1 WHERE c = $2"},
		{"SELECT '?', \"a?\" FROM t WHERE x = ?", "SELECT '?', \"a?\" FROM t WHERE x = $1"},
		{"SELECT 'it''s ?' || ?", "SELECT 'it''s ?' || $1"},
		{"SELECT ? -- why?\n, ?", "SELECT $1 -- why?\n, $2"},
		{"SELECT /* ? */ ?", "SELECT /* ? */ $1"},
		{"SELECT '?", "SELECT '?"},
	} {
		if got := dollarPlaceholders(tc.in); got != tc.want {
			t.Errorf("dollarPlaceholders(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// testConflict: b takes its snapshot, a updates a row and commits, then b
// updates the same row. Under REPEATABLE READ and SERIALIZABLE that is a
// serialization failure (40001, Conflict); under READ COMMITTED b updates
// the committed row. The second round has b's update wait for a's lock.
func testConflict(t *testing.T, ctx context.Context, inst *server.Instance) {
	a, b := open(t, inst.URL), open(t, inst.URL)
	dbmstest.CreateAccounts(t, ctx, a, "confl", 2)
	const upd = "UPDATE confl SET bal = bal + ? WHERE id = ?"
	for _, iso := range []dbms.Isolation{dbms.RepeatableRead, dbms.Serializable, dbms.ReadCommitted} {
		if err := b.Begin(ctx, iso); err != nil {
			t.Fatal(err)
		}
		if _, err := b.QueryInt(ctx, "SELECT bal FROM confl WHERE id = ?", 1); err != nil {
			t.Fatal(err)
		}
		if err := a.Begin(ctx, iso); err != nil {
			t.Fatal(err)
		}
		if _, err := a.ExecArgs(ctx, upd, int64(1), 1); err != nil {
			t.Fatal(err)
		}
		// b's update waits for a's row lock, then decides.
		done := make(chan error, 1)
		go func() {
			_, err := b.ExecArgs(ctx, upd, int64(2), 1)
			done <- err
		}()
		if err := a.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		err := <-done
		if iso == dbms.ReadCommitted {
			if err != nil {
				t.Errorf("%s: concurrent update failed: %v", iso, err)
			}
			if err := b.Commit(ctx); err != nil {
				t.Errorf("%s: commit: %v", iso, err)
			}
			continue
		}
		if c := dbms.Classify(err); c != dbms.Serialization {
			t.Errorf("%s: concurrent update: %v (class %v), want serialization", iso, err, c)
		}
		if err := b.Commit(ctx); err == nil {
			t.Errorf("%s: commit after a serialization failure succeeded", iso)
		}
		if err := b.Rollback(ctx); err != nil {
			t.Errorf("%s: rollback after the failed commit: %v", iso, err)
		}
	}
	if v := dbmstest.Balance(t, ctx, a, "confl", 1); v != 3+2 {
		t.Errorf("bal = %d, want 5 (three commits of a, one of b)", v)
	}
}

// testDeadlock: a and b lock rows 1 and 2, then each wants the other's: at
// every level the deadlock detector (after deadlock_timeout, 1 s) ends one
// of them with 40P01, a dbms.Deadlock, not the serialization failure
// (40001) of a concurrent update.
func testDeadlock(t *testing.T, ctx context.Context, inst *server.Instance) {
	a, b := open(t, inst.URL), open(t, inst.URL)
	dbmstest.CreateAccounts(t, ctx, a, "deadl", 2)
	for _, iso := range []dbms.Isolation{dbms.RepeatableRead, dbms.ReadCommitted, dbms.Serializable} {
		err := dbmstest.Deadlock(t, ctx, a, b, iso, "deadl")
		var pe *pgconn.PgError
		if c := dbms.Classify(err); c != dbms.Deadlock || !errors.As(err, &pe) || pe.Code != "40P01" {
			t.Errorf("%s: deadlock: %v (class %v), want deadlock (40P01)", iso, err, c)
		}
	}
}
