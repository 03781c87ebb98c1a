package tpcb

import (
	"strings"
	"testing"
)

func TestCheckCatchesBrokenBalances(t *testing.T) {
	good := Balances{Accounts: 150, Tellers: 150, Branches: 150, HistoryDelta: 50, HistoryRows: 7}
	if bad := good.Check(100, 7); len(bad) != 0 {
		t.Fatalf("consistent balances reported: %v", bad)
	}
	cases := []struct {
		name string
		b    Balances
		want string
	}{
		{"account off by one", Balances{Accounts: 151, Tellers: 150, Branches: 150, HistoryDelta: 50, HistoryRows: 7}, "sum(abalance) = 151"},
		{"teller lost a delta", Balances{Accounts: 150, Tellers: 149, Branches: 150, HistoryDelta: 50, HistoryRows: 7}, "sum(tbalance) = 149"},
		{"branch not its tellers' sum", Balances{Accounts: 150, Tellers: 150, Branches: 150, HistoryDelta: 50, HistoryRows: 7, BadBranches: 1}, "1 branches"},
		{"history row missing", Balances{Accounts: 150, Tellers: 150, Branches: 150, HistoryDelta: 50, HistoryRows: 6}, "history holds 6 rows"},
	}
	for _, c := range cases {
		bad := c.b.Check(100, 7)
		if len(bad) == 0 || !strings.Contains(strings.Join(bad, "; "), c.want) {
			t.Errorf("%s: violations %v, want one containing %q", c.name, bad, c.want)
		}
	}
}

func TestTrimDecimal(t *testing.T) {
	for in, want := range map[string]string{"123": "123", "123.000": "123", "-5.0": "-5", "1.5": "1.5"} {
		if got := trimDecimal(in); got != want {
			t.Errorf("trimDecimal(%q) = %q", in, got)
		}
	}
}

// TestCheckAfterLoss: once a client's commits are unknown, balances that
// moved without a history row the check counted (a lost node's commit
// between a check and the cleanup) pass, and whatever breaks a single
// transaction's atomicity still fails.
func TestCheckAfterLoss(t *testing.T) {
	// 274 more in the balances than carried + history: a commit landed
	// after the last check read the history, and the cleanup removed it.
	late := Balances{Accounts: 424, Tellers: 424, Branches: 424, HistoryDelta: 50, HistoryRows: 9}
	if bad := late.Check(100, 7); len(bad) == 0 {
		t.Fatal("the exact check passes balances that moved without a history row it counted")
	}
	if bad := late.CheckAfterLoss(7); len(bad) != 0 {
		t.Fatalf("after a loss: %v", bad)
	}
	for _, c := range []struct {
		name string
		b    Balances
		want string
	}{
		{"teller lost a delta", Balances{Accounts: 424, Tellers: 423, Branches: 424, HistoryRows: 9}, "sum(tbalance) = 423"},
		{"branch lost a delta", Balances{Accounts: 424, Tellers: 424, Branches: 425, HistoryRows: 9}, "sum(bbalance) = 425"},
		{"branch not its tellers' sum", Balances{Accounts: 424, Tellers: 424, Branches: 424, HistoryRows: 9, BadBranches: 2}, "2 branches"},
		{"history short of the counted commits", Balances{Accounts: 424, Tellers: 424, Branches: 424, HistoryRows: 6}, "at least 7"},
	} {
		if bad := c.b.CheckAfterLoss(7); !strings.Contains(strings.Join(bad, "; "), c.want) {
			t.Errorf("%s: violations %v, want one containing %q", c.name, bad, c.want)
		}
	}
}
