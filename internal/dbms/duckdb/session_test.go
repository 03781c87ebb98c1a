package duckdb

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
)

func TestTransactions(t *testing.T) {
	e, _ := openFile(t)
	for _, iso := range []dbms.Isolation{dbms.RepeatableRead, dbms.ReadCommitted, dbms.Serializable} {
		dbmstest.CheckTransactions(t, context.Background(), e, iso, "tx_acct")
	}
}

func TestKeys(t *testing.T) {
	e, _ := openFile(t)
	dbmstest.CheckKeys(t, context.Background(), e, "k_parent", "k_child", false)
}

func TestTableBytes(t *testing.T) {
	ctx := context.Background()
	e, _ := openFile(t)
	// Single-row inserts cost DuckDB about half a millisecond each; one
	// INSERT ... SELECT fills blocks at once (hex text compresses about 2:1).
	fill := func(ctx context.Context, from, n int) error {
		_, err := e.ExecArgs(ctx, "INSERT INTO sized SELECT i, repeat(md5(i::VARCHAR), 3) FROM range(?, ?) t(i)", from, from+n)
		return err
	}
	dbmstest.CheckTableBytes(t, ctx, e, "sized", 50000, fill)
	if _, err := e.TableBytes(ctx, "sized", "no_such_table"); err == nil {
		t.Errorf("TableBytes of a missing table: no error")
	}
	mem := openURL(t, "duckdb::memory:")
	mustExec(t, mem, "CREATE TABLE m (i INTEGER)")
	if _, err := mem.TableBytes(ctx, "m"); !errors.Is(err, dbms.ErrNotSupported) {
		t.Errorf("TableBytes in memory: %v, want ErrNotSupported", err)
	}
}

// TestTransactionConflict: two sessions on one file update one row. The
// second fails at once with a serialization failure (DuckDB takes no
// locks, so it never waits and has no deadlocks), whether the first has not committed
// yet or committed after the second began; its Commit then reports the
// failure instead of DuckDB's silent rollback.
func TestTransactionConflict(t *testing.T) {
	ctx := context.Background()
	a, path := openFile(t)
	b := openURL(t, "duckdb:"+path)
	dbmstest.CreateAccounts(t, ctx, a, "acct", 2)
	const upd = "UPDATE acct SET bal = bal + ? WHERE id = ?"
	for _, committed := range []bool{false, true} {
		dbmstest.BeginAll(t, ctx, dbms.RepeatableRead, a, b)
		if _, err := b.ExecArgs(ctx, upd, int64(1000), 2); err != nil {
			t.Fatal(err)
		}
		if _, err := a.ExecArgs(ctx, upd, int64(1), 1); err != nil {
			t.Fatal(err)
		}
		if committed {
			if err := a.Commit(ctx); err != nil {
				t.Fatal(err)
			}
		}
		_, err := b.ExecArgs(ctx, upd, int64(2), 1)
		if c := dbms.Classify(err); c != dbms.Serialization {
			t.Errorf("committed=%v: concurrent update: %v (class %v), want serialization", committed, err, c)
		}
		err = b.Commit(ctx)
		if c := dbms.Classify(err); c != dbms.Serialization {
			t.Errorf("committed=%v: commit after the conflict: %v (class %v), want serialization", committed, err, c)
		}
		if err := b.Rollback(ctx); err != nil {
			t.Errorf("rollback after the failed commit: %v", err)
		}
		if !committed {
			if err := a.Commit(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	if v := dbmstest.Balance(t, ctx, a, "acct", 1); v != 2 {
		t.Errorf("bal of 1 = %d, want 2 (a's two commits)", v)
	}
	if v := dbmstest.Balance(t, ctx, a, "acct", 2); v != 0 {
		t.Errorf("bal of 2 = %d, want 0 (b's failed trials rolled back)", v)
	}
}

// TestConcurrentSessions: Engines on one file, one goroutine each, run
// transactions on the same rows at once, retrying conflicts. Every committed
// transaction must be there exactly once.
func TestConcurrentSessions(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	setup, path := openFile(t)
	dbmstest.CreateAccounts(t, ctx, setup, "acct", 2)
	mustExec(t, setup, "CREATE TABLE hist (sess INTEGER, n INTEGER)")
	const sessions, txs = 4, 20
	var wg sync.WaitGroup
	conflicts := make([]int, sessions)
	errs := make(chan error, sessions)
	for s := 0; s < sessions; s++ {
		e := openURL(t, "duckdb:"+path)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < txs; i++ {
				for attempt := 0; ; attempt++ {
					err := transfer(ctx, e, s, i)
					if err == nil {
						break
					}
					e.Rollback(ctx)
					if dbms.Classify(err) != dbms.Serialization || attempt > 10000 {
						errs <- fmt.Errorf("session %d: %w", s, err)
						return
					}
					conflicts[s]++
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if v := dbmstest.Balance(t, ctx, setup, "acct", 1); v != sessions*txs {
		t.Errorf("bal = %d, want %d", v, sessions*txs)
	}
	if n, _ := setup.QueryInt(ctx, "SELECT COUNT(*) FROM hist"); n != sessions*txs {
		t.Errorf("history rows = %d, want %d", n, sessions*txs)
	}
	t.Logf("conflicts retried: %v", conflicts)
}

// transfer is one TPC-B-like transaction, with prepared statements.
func transfer(ctx context.Context, e *Engine, s, i int) error {
	const upd, sel, ins = "UPDATE acct SET bal = bal + 1 WHERE id = ?", "SELECT bal FROM acct WHERE id = ?", "INSERT INTO hist VALUES (?, ?)"
	for _, q := range []string{upd, sel, ins} {
		if err := e.Prepare(ctx, q); err != nil {
			return err
		}
	}
	if err := e.Begin(ctx, dbms.RepeatableRead); err != nil {
		return err
	}
	if _, err := e.ExecArgs(ctx, upd, 1); err != nil {
		return err
	}
	if _, err := e.QueryInt(ctx, sel, 1); err != nil {
		return err
	}
	if _, err := e.ExecArgs(ctx, ins, s, i); err != nil {
		return err
	}
	return e.Commit(ctx)
}

func TestTextQuerier(t *testing.T) {
	e, _ := openFile(t)
	dbmstest.CheckTextQuerier(t, context.Background(), e, "tq_acct")
}
