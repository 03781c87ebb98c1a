package firebird

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
	"github.com/dbgauge/dbgauge/internal/workload/tpcb"
)

// TestProcedureConflictUndone makes the procedure form's update conflicts
// happen on purpose, one at a time, the way four clients on one branch meet
// them: the call waits at the account, teller or branch row another
// transaction updated; that one commits (the call fails with an update
// conflict, and what it had updated must be undone with it) or rolls back
// (the call goes on and commits whole). The session then commits another
// call. Through dbgauge's driver path every such sequence keeps the
// balances exact; the losses TestProcedureAtomicUnderConflicts's soak found
// now and then need concurrency this test does not have.
func TestProcedureConflictUndone(t *testing.T) {
	inst := servertest.Start(t, "firebird", server.Options{})
	ctx := ctxT(t)
	e := openURL(t, inst.URL)
	proc := setupTPCB(t, ctx, e)
	caller, other := openURL(t, inst.URL), openURL(t, inst.URL)

	for _, held := range []struct{ name, update string }{
		{"account", "UPDATE " + tpcb.Accounts + " SET abalance = abalance + ? WHERE aid = 1"},
		{"teller", "UPDATE " + tpcb.Tellers + " SET tbalance = tbalance + ? WHERE tid = 1"},
		{"branch", "UPDATE " + tpcb.Branches + " SET bbalance = bbalance + ? WHERE bid = 1"},
	} {
		for _, commits := range []bool{true, false} {
			for round := range 4 {
				conflictRound(t, ctx, e, caller, other, proc, held.name, held.update, commits, round)
			}
		}
	}
}

// conflictRound: other updates the held row and, while the call waits for
// it, commits (the call fails with an update conflict and is rolled back)
// or rolls back (the call goes on and commits). Every second round the
// session then commits one more call. The balances are checked after.
func conflictRound(t *testing.T, ctx context.Context, e, caller, other *Engine, proc *tpcb.Procedure, held, update string, commits bool, round int) {
	t.Helper()
	before := balances(t, ctx, e)
	want := maps.Clone(before)
	if err := other.Begin(ctx, dbms.RepeatableRead); err != nil {
		t.Fatal(err)
	}
	if _, err := other.ExecArgs(ctx, update, int64(1)); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- tpcb.CallProcedure(ctx, caller, proc, dbms.RepeatableRead, &tpcb.Inputs{Aid: 1, Tid: 1, Bid: 1, Delta: 100})
	}()
	waitForLock(t, ctx, e, 1)
	if commits {
		if err := other.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		want[held]++
	} else if err := other.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	err := <-done
	switch {
	case commits && dbms.Classify(err) != dbms.Serialization:
		t.Fatalf("%s held, committed, round %d: the waiting call: %v (class %v), want an update conflict", held, round, err, dbms.Classify(err))
	case commits:
		if err := caller.Rollback(ctx); err != nil {
			t.Fatalf("round %d: rollback: %v", round, err)
		}
	case err != nil:
		t.Fatalf("%s held, rolled back, round %d: the waiting call: %v", held, round, err)
	default:
		for _, k := range []string{"account", "teller", "branch"} {
			want[k] += 100
		}
	}
	if round%2 == 1 {
		if err := tpcb.CallProcedure(ctx, caller, proc, dbms.RepeatableRead, &tpcb.Inputs{Aid: 1, Tid: 1, Bid: 1, Delta: 7}); err != nil {
			t.Fatalf("round %d: the next call: %v", round, err)
		}
		for _, k := range []string{"account", "teller", "branch"} {
			want[k] += 7
		}
	}
	got := balances(t, ctx, e)
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("%s held, other commits %v, round %d: %s balance %d, want %d (a failed call's update kept, or a committed one lost)", held, commits, round, k, got[k], want[k])
		}
	}
}

// balances reads account 1's, teller 1's and branch 1's balances.
func balances(t *testing.T, ctx context.Context, e *Engine) map[string]int64 {
	t.Helper()
	got := map[string]int64{}
	for name, q := range map[string]string{
		"account": "SELECT abalance FROM " + tpcb.Accounts + " WHERE aid = 1",
		"teller":  "SELECT tbalance FROM " + tpcb.Tellers + " WHERE tid = 1",
		"branch":  "SELECT bbalance FROM " + tpcb.Branches + " WHERE bid = 1",
	} {
		v, err := e.QueryInt(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		got[name] = v
	}
	return got
}

// waitForLock returns once n procedure calls of other attachments are
// waiting (a
// statement running for more than a moment while its transaction waits
// for a record lock shows as active in MON$STATEMENTS).
func waitForLock(t *testing.T, ctx context.Context, obs *Engine, n int64) {
	t.Helper()
	for range 200 {
		got, err := obs.QueryInt(ctx, "SELECT COUNT(*) FROM MON$STATEMENTS s WHERE s.MON$STATE = 1 AND s.MON$ATTACHMENT_ID <> CURRENT_CONNECTION AND s.MON$SQL_TEXT STARTING WITH 'EXECUTE PROCEDURE'")
		if err != nil {
			t.Fatal(err)
		}
		if got >= n {
			time.Sleep(50 * time.Millisecond) // let them reach the row
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the procedure call never waited for the branch row")
}

// TestProcedureQueueUndone: three calls on three sessions queue at the
// branch another transaction updated. When it commits, all three fail with
// update conflicts; when it rolls back, one of them takes the branch and
// commits, and the other two, now waiting for that one, fail. Either way the
// balances are exactly the committed calls' deltas.
func TestProcedureQueueUndone(t *testing.T) {
	inst := servertest.Start(t, "firebird", server.Options{})
	ctx := ctxT(t)
	e := openURL(t, inst.URL)
	proc := setupTPCB(t, ctx, e)
	other := openURL(t, inst.URL)
	callers := []*Engine{openURL(t, inst.URL), openURL(t, inst.URL), openURL(t, inst.URL)}
	want := map[string]int64{}
	for round := range 8 {
		commits := round%2 == 0
		if err := other.Begin(ctx, dbms.RepeatableRead); err != nil {
			t.Fatal(err)
		}
		if _, err := other.ExecArgs(ctx, "UPDATE "+tpcb.Branches+" SET bbalance = bbalance + ? WHERE bid = 1", int64(1)); err != nil {
			t.Fatal(err)
		}
		errs := make([]chan error, len(callers))
		ins := make([]tpcb.Inputs, len(callers))
		for i, c := range callers {
			ins[i] = tpcb.Inputs{Aid: int64(i + 1), Tid: int64(i + 1), Bid: 1, Delta: int64(10*round + i + 1)}
			errs[i] = make(chan error, 1)
			go func() { errs[i] <- tpcb.CallProcedure(ctx, c, proc, dbms.RepeatableRead, &ins[i]) }()
		}
		waitForLock(t, ctx, e, int64(len(callers)))
		if commits {
			if err := other.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			want["branch 1"]++
		} else if err := other.Rollback(ctx); err != nil {
			t.Fatal(err)
		}
		ok := 0
		for i, c := range callers {
			err := <-errs[i]
			if err != nil {
				if dbms.Classify(err) != dbms.Serialization {
					t.Fatalf("round %d caller %d: %v, want an update conflict", round, i, err)
				}
				if err := c.Rollback(ctx); err != nil {
					t.Fatal(err)
				}
				continue
			}
			ok++
			want[fmt.Sprintf("account %d", ins[i].Aid)] += ins[i].Delta
			want[fmt.Sprintf("teller %d", ins[i].Tid)] += ins[i].Delta
			want["branch 1"] += ins[i].Delta
		}
		if commits && ok != 0 || !commits && ok != 1 {
			t.Errorf("round %d (the branch's holder commits: %v): %d calls committed", round, commits, ok)
		}
		for k, v := range want {
			var table, col string
			var id int64
			fmt.Sscanf(k, "%s %d", &table, &id)
			switch table {
			case "account":
				table, col = tpcb.Accounts+" WHERE aid = ", "abalance"
			case "teller":
				table, col = tpcb.Tellers+" WHERE tid = ", "tbalance"
			default:
				table, col = tpcb.Branches+" WHERE bid = ", "bbalance"
			}
			got, err := e.QueryInt(ctx, "SELECT "+col+" FROM "+table+strconv.FormatInt(id, 10))
			if err != nil {
				t.Fatal(err)
			}
			if got != v {
				t.Errorf("round %d: %s balance %d, want %d", round, k, got, v)
			}
		}
	}
}

// setupTPCB creates TPC-B's tables at scale 1 with their keys and the
// procedure.
func setupTPCB(t *testing.T, ctx context.Context, e *Engine) *tpcb.Procedure {
	t.Helper()
	proc, err := tpcb.ProcedureFor(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tpcb.Schema(1) {
		if err := e.CreateTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
		if tb.Name == tpcb.History {
			continue
		}
		if _, err := e.Load(ctx, tb, tpcb.NewRows(tb.Name, 1)); err != nil {
			t.Fatal(err)
		}
	}
	for _, pk := range tpcb.PrimaryKeys {
		if err := e.AddPrimaryKey(ctx, pk.Table, pk.Column); err != nil {
			t.Fatal(err)
		}
	}
	for _, fk := range tpcb.ForeignKeys {
		if err := e.AddForeignKey(ctx, fk.Table, fk.Column, fk.RefTable, fk.RefColumn); err != nil {
			t.Fatal(err)
		}
	}
	for _, st := range proc.Create {
		if _, err := e.Exec(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	return proc
}
