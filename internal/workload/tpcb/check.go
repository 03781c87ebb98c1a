package tpcb

import (
	"context"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// check is the consistency check of docs/dsbench.md §3 over one scale's
// cycles: the balances against the history's deltas, the deltas of the
// history rows cleaned up after earlier cycles carried forward.
type check struct {
	// writes: the history holds a row per committed transaction (TPC-B);
	// a SELECT load commits none, so it must stay empty.
	writes  bool
	b       Balances
	carried int64
}

func (c *check) Read(ctx context.Context, e dbms.Engine) (err error) {
	c.b, err = ReadBalances(ctx, e)
	return err
}

func (c *check) Verify(n workload.Commits) []string {
	want := n.Committed
	if !c.writes {
		want = 0
	}
	var bad []string
	if n.Unknown {
		// The lost node's commits are unknown (CheckAfterLoss says why);
		// the carried deltas start again from the balances.
		bad = c.b.CheckAfterLoss(want)
		c.carried = c.b.Accounts - c.b.HistoryDelta
	} else {
		bad = c.b.CheckInDoubt(c.carried, want, n.InDoubt)
	}
	c.carried += c.b.HistoryDelta
	return bad
}

func (c *check) Cleanup(ctx context.Context, e dbms.Engine) error { return ClearHistory(ctx, e) }
