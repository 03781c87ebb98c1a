package dbmstest

import (
	"context"
	"fmt"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Deadlock makes a true deadlock on table (CreateAccounts rows 1 and 2,
// a unique key on id so that an update locks one row): a and b begin at
// iso, a updates row 1 and b row 2, then a asks for row 2 while b asks
// for row 1 (Crossed), and each waits for the other. It returns the
// failure of the one the engine ended, for the caller to classify.
func Deadlock(t *testing.T, ctx context.Context, a, b Session, iso dbms.Isolation, table string) error {
	t.Helper()
	BeginAll(t, ctx, iso, a, b)
	upd := fmt.Sprintf("UPDATE %s SET bal = bal + ? WHERE id = ?", table)
	if _, err := a.ExecArgs(ctx, upd, int64(1), 1); err != nil {
		t.Fatal(err)
	}
	if _, err := b.ExecArgs(ctx, upd, int64(2), 2); err != nil {
		t.Fatal(err)
	}
	return Crossed(t, ctx, a, b, table, 2, 1)
}

// Crossed updates row rowA of table on a and row rowB on b at once, inside
// the transactions both have open, when one of them must fail: each would
// wait for the other's locks, or both write one row. A session whose
// update fails rolls back there and then, which lets the other's update
// through; the other commits. It fails the test unless exactly one of the
// two failed, and returns that failure.
func Crossed(t *testing.T, ctx context.Context, a, b Session, table string, rowA, rowB int) error {
	t.Helper()
	upd := fmt.Sprintf("UPDATE %s SET bal = bal + ? WHERE id = ?", table)
	// Both run on goroutines of their own: the survivor waits for the
	// victim's rollback, so neither may wait for the other's end first.
	run := func(s Session, row int, out chan<- error) {
		if _, err := s.ExecArgs(ctx, upd, int64(10), row); err != nil {
			s.Rollback(ctx)
			out <- err
			return
		}
		if err := s.Commit(ctx); err != nil {
			out <- fmt.Errorf("commit of the survivor: %w", err)
			return
		}
		out <- nil
	}
	errA, errB := make(chan error, 1), make(chan error, 1)
	go run(a, rowA, errA)
	go run(b, rowB, errB)
	ea, eb := <-errA, <-errB
	switch {
	case ea != nil && eb == nil:
		return ea
	case eb != nil && ea == nil:
		return eb
	}
	t.Fatalf("crossed updates: a %v, b %v; want exactly one of them failed", ea, eb)
	return nil
}
