package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
)

func openSession(t *testing.T, url string) *Engine {
	t.Helper()
	e, err := dbms.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e.(*Engine)
}

func TestTransactions(t *testing.T) {
	ctx := context.Background()
	e := openSession(t, "sqlite:"+filepath.Join(t.TempDir(), "s.db"))
	for _, iso := range []dbms.Isolation{dbms.RepeatableRead, dbms.Serializable} {
		dbmstest.CheckTransactions(t, ctx, e, iso, "tx_acct")
	}
}

func TestKeys(t *testing.T) {
	e := openSession(t, "sqlite:"+filepath.Join(t.TempDir(), "s.db"))
	dbmstest.CheckKeys(t, context.Background(), e, "k_parent", "k_child", false)
}

func TestTableBytes(t *testing.T) {
	e := openSession(t, "sqlite:"+filepath.Join(t.TempDir(), "s.db"))
	dbmstest.CheckTableBytes(t, context.Background(), e, "sized", 1000, nil)
	if _, err := e.TableBytes(context.Background(), "sized", "no_such_table"); err == nil {
		t.Errorf("TableBytes of a missing table: no error")
	}
}

// upd adds to the balance of one row of twoOnAccounts's table.
const upd = "UPDATE acct SET bal = bal + ? WHERE id = ?"

// twoOnAccounts opens two sessions on a new database file, with the URL's
// query, and creates table acct with rows 1 and 2.
func twoOnAccounts(t *testing.T, ctx context.Context, query string) (a, b *Engine) {
	t.Helper()
	url := "sqlite:" + filepath.Join(t.TempDir(), "s.db") + query
	a, b = openSession(t, url), openSession(t, url)
	dbmstest.CreateAccounts(t, ctx, a, "acct", 2)
	return a, b
}

// TestBusy: two sessions write one file. With a busy timeout of 0 the
// second writer fails at once with SQLITE_BUSY, a dbms.Serialization; so
// does the first one's COMMIT while the second still reads (rollback journal), which
// leaves the transaction to Rollback.
func TestBusy(t *testing.T) {
	ctx := context.Background()
	a, b := twoOnAccounts(t, ctx, "?_busy_timeout=0")

	err := dbmstest.Collide(t, ctx, a, b, dbms.RepeatableRead, upd)
	if c := dbms.Classify(err); c != dbms.Serialization {
		t.Errorf("second writer: %v (class %v), want serialization", err, c)
	}
	if err := b.Rollback(ctx); err != nil {
		t.Errorf("rollback of the failed trial: %v", err)
	}

	// b reads inside a transaction, holding a read lock a's COMMIT must wait for.
	if err := b.Begin(ctx, dbms.RepeatableRead); err != nil {
		t.Fatal(err)
	}
	if _, err := b.QueryInt(ctx, "SELECT bal FROM acct WHERE id = ?", 2); err != nil {
		t.Fatal(err)
	}
	err = a.Commit(ctx)
	if c := dbms.Classify(err); c != dbms.Serialization {
		t.Errorf("commit beside a reader: %v (class %v), want serialization", err, c)
	}
	if err := a.Rollback(ctx); err != nil {
		t.Errorf("rollback after the failed commit: %v", err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if v := dbmstest.Balance(t, ctx, a, "acct", 1); v != 0 {
		t.Errorf("bal = %d, want 0 (both trials failed)", v)
	}
}

// TestBusySnapshot: in WAL mode a transaction that read, and so holds a
// snapshot, cannot write once another session committed after that
// snapshot: SQLITE_BUSY_SNAPSHOT at once, whatever the busy timeout, the
// write-write conflict of snapshot isolation and a dbms.Serialization. The
// whole transaction run again commits.
func TestBusySnapshot(t *testing.T) {
	ctx := context.Background()
	a, b := twoOnAccounts(t, ctx, "?_journal_mode=WAL")
	if err := a.Begin(ctx, dbms.RepeatableRead); err != nil {
		t.Fatal(err)
	}
	if _, err := a.QueryInt(ctx, "SELECT bal FROM acct WHERE id = ?", 1); err != nil {
		t.Fatal(err)
	}
	if err := b.Begin(ctx, dbms.RepeatableRead); err != nil {
		t.Fatal(err)
	}
	if _, err := b.ExecArgs(ctx, upd, int64(10), 1); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := a.ExecArgs(ctx, upd, int64(1), 1)
	var se sqlite3.Error
	if !errors.As(err, &se) || se.ExtendedCode != sqlite3.ErrBusySnapshot {
		t.Errorf("write on a stale snapshot: %v, want SQLITE_BUSY_SNAPSHOT", err)
	}
	if c := dbms.Classify(err); c != dbms.Serialization {
		t.Errorf("write on a stale snapshot: %v (class %v), want serialization", err, c)
	}
	if err := a.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Begin(ctx, dbms.RepeatableRead); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ExecArgs(ctx, upd, int64(1), 1); err != nil {
		t.Fatalf("the transaction run again: %v", err)
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if v := dbmstest.Balance(t, ctx, a, "acct", 1); v != 11 {
		t.Errorf("bal = %d, want 11 (b's commit and a's second run)", v)
	}
}

// TestConcurrentSessions: several Engines, each its own connection, run
// transactions on one file at once, retrying failed trials, in both journal
// modes. Every committed transaction must be there once, and the file must
// pass integrity_check: busy errors are allowed, lost updates, corruption and
// hangs are not.
func TestConcurrentSessions(t *testing.T) {
	for _, mode := range []struct{ name, query string }{{"rollback-journal", ""}, {"WAL", "?_journal_mode=WAL"}} {
		t.Run(mode.name, func(t *testing.T) {
			url := "sqlite:" + filepath.Join(t.TempDir(), "s.db") + mode.query
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			setup := openSession(t, url)
			dbmstest.CreateAccounts(t, ctx, setup, "acct", 2)
			if _, err := setup.Exec(ctx, "CREATE TABLE hist (sess INTEGER, n INTEGER)"); err != nil {
				t.Fatal(err)
			}
			const sessions, txs = 4, 25
			var wg sync.WaitGroup
			retries := make([]int, sessions)
			errs := make(chan error, sessions)
			for s := 0; s < sessions; s++ {
				e := openSession(t, url)
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < txs; i++ {
						for {
							err := transfer(ctx, e, s, i)
							if err == nil {
								break
							}
							e.Rollback(ctx)
							if dbms.Classify(err) != dbms.Serialization {
								errs <- fmt.Errorf("session %d: %w", s, err)
								return
							}
							retries[s]++
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
			if v, err := setup.QueryValue(ctx, "PRAGMA integrity_check"); err != nil || v != "ok" {
				t.Errorf("integrity_check = %q, %v", v, err)
			}
			t.Logf("failed trials retried: %v", retries)
		})
	}
}

// transfer is one TPC-B-like transaction: write first, then read.
func transfer(ctx context.Context, e *Engine, s, i int) error {
	if err := e.Begin(ctx, dbms.RepeatableRead); err != nil {
		return err
	}
	if _, err := e.ExecArgs(ctx, "UPDATE acct SET bal = bal + 1 WHERE id = ?", 1); err != nil {
		return err
	}
	if _, err := e.QueryInt(ctx, "SELECT bal FROM acct WHERE id = ?", 1); err != nil {
		return err
	}
	if _, err := e.ExecArgs(ctx, "INSERT INTO hist VALUES (?, ?)", s, i); err != nil {
		return err
	}
	if err := e.Commit(ctx); err != nil {
		return err
	}
	return nil
}

func TestTextQuerier(t *testing.T) {
	e := openSession(t, "sqlite:"+filepath.Join(t.TempDir(), "q.db"))
	dbmstest.CheckTextQuerier(t, context.Background(), e, "tq_acct")
}
