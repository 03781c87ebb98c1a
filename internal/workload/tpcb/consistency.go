package tpcb

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Balances is what the consistency check reads.
type Balances struct {
	Accounts, Tellers, Branches int64 // sums of the balances
	HistoryDelta                int64 // sum of history.delta
	HistoryRows                 int64
	BadBranches                 int64 // branches whose balance is not their tellers' sum
}

// ReadBalances reads the sums the consistency conditions compare. It runs
// while no load runs (between cycles).
func ReadBalances(ctx context.Context, e dbms.Engine) (Balances, error) {
	var b Balances
	q := fmt.Sprintf(`SELECT
 (SELECT COALESCE(SUM(abalance), 0) FROM %[1]s),
 (SELECT COALESCE(SUM(tbalance), 0) FROM %[2]s),
 (SELECT COALESCE(SUM(bbalance), 0) FROM %[3]s),
 (SELECT COALESCE(SUM(delta), 0) FROM %[4]s),
 (SELECT COUNT(*) FROM %[4]s),
 (SELECT COUNT(*) FROM %[3]s br WHERE br.bbalance <> (SELECT COALESCE(SUM(t.tbalance), 0) FROM %[2]s t WHERE t.bid = br.bid))`,
		Accounts, Tellers, Branches, History)
	if d, ok := e.(dbms.DummyTable); ok {
		q += " FROM " + d.DummyTable() // a SELECT that needs a table
	}
	rows, err := e.QueryRows(ctx, q)
	if err != nil {
		return b, fmt.Errorf("read balances: %w", err)
	}
	if len(rows) != 1 || len(rows[0]) != 6 {
		return b, fmt.Errorf("read balances: unexpected result %v", rows)
	}
	dst := []*int64{&b.Accounts, &b.Tellers, &b.Branches, &b.HistoryDelta, &b.HistoryRows, &b.BadBranches}
	for i, v := range rows[0] {
		n, err := strconv.ParseInt(trimDecimal(v), 10, 64)
		if err != nil {
			return b, fmt.Errorf("read balances: %q is not a whole number", v)
		}
		*dst[i] = n
	}
	return b, nil
}

// trimDecimal turns "123.000" (DECIMAL sums) into "123".
func trimDecimal(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			for _, c := range s[i+1:] {
				if c != '0' {
					return s
				}
			}
			return s[:i]
		}
	}
	return s
}

// Check states the consistency conditions of docs/dsbench.md §3 against
// what the run committed: carried is the sum of the deltas of history rows
// already removed by earlier cleanups, committed the transactions committed
// since the last cleanup (counted by the client, including any that
// committed just after a cycle ended). It returns the violations, none when
// consistent.
func (b Balances) Check(carried, committed int64) []string {
	return b.CheckInDoubt(carried, committed, 0)
}

// CheckInDoubt is Check for a run whose clients lost inDoubt commits with
// their connections (ErrCommitInDoubt): each may or may not have
// committed, so the history may hold up to inDoubt rows more than
// committed. The balances must still match the history's deltas exactly.
func (b Balances) CheckInDoubt(carried, committed, inDoubt int64) []string {
	var bad []string
	total := carried + b.HistoryDelta
	for _, s := range []struct {
		name string
		v    int64
	}{{"sum(abalance)", b.Accounts}, {"sum(tbalance)", b.Tellers}, {"sum(bbalance)", b.Branches}} {
		if s.v != total {
			bad = append(bad, fmt.Sprintf("%s = %d, but the committed deltas sum to %d", s.name, s.v, total))
		}
	}
	bad = append(bad, b.badBranches()...)
	switch {
	case inDoubt == 0 && b.HistoryRows != committed:
		bad = append(bad, fmt.Sprintf("history holds %d rows, but %d transactions committed", b.HistoryRows, committed))
	case b.HistoryRows < committed || b.HistoryRows > committed+inDoubt:
		bad = append(bad, fmt.Sprintf("history holds %d rows, but %d transactions committed and %d more were in doubt", b.HistoryRows, committed, inDoubt))
	}
	return bad
}

// CheckAfterLoss is the check of a cycle after a client was lost with
// its commits unknown (a load node written off): its sessions may still
// commit what they had in flight, between this check and the cleanup too,
// so neither the history's row count nor the carried deltas are known
// exactly any more. What stays checkable: every committed transaction
// moved the three balances by the same delta (the sums are read in one
// statement, one snapshot), each branch's balance is its tellers' sum, and
// the history holds at least the committed transactions counted.
func (b Balances) CheckAfterLoss(committed int64) []string {
	var bad []string
	if b.Tellers != b.Accounts || b.Branches != b.Accounts {
		bad = append(bad, fmt.Sprintf("sum(abalance) = %d, sum(tbalance) = %d, sum(bbalance) = %d: they must be equal", b.Accounts, b.Tellers, b.Branches))
	}
	bad = append(bad, b.badBranches()...)
	if b.HistoryRows < committed {
		bad = append(bad, fmt.Sprintf("history holds %d rows, but at least %d transactions committed", b.HistoryRows, committed))
	}
	return bad
}

func (b Balances) badBranches() []string {
	if b.BadBranches == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%d branches have a balance different from the sum of their tellers' balances", b.BadBranches)}
}

// ClearHistory removes the history rows (the cleanup between cycles); the
// caller carries their delta sum forward.
func ClearHistory(ctx context.Context, e dbms.Engine) error {
	_, err := e.Exec(ctx, "DELETE FROM "+History)
	return err
}
